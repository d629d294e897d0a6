// The PGlite data folder's lock: a second open (this process or another) is refused at once,
// naming the folder and the holder's pid; close lets it go; a dead holder's lock is taken
// over, by one process only when several find it; the CLI reports the refusal (exit 1, the
// summary line of run/match, a failed tick of schedule).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../cli/main";
import { EXIT } from "../exit-codes";
import { fakeIo, logged } from "../testing/cli";
import { temporaryFolder } from "../testing/databases";
import { openDatabase } from "./connect";
import {
  DataFolderInUseError,
  LOCK_FILE,
  lockDataFolder,
  removeDeadLock,
} from "./data-folder-lock";
import { queryRows } from "./query-rows";

const LOCK_MODULE = pathToFileURL(
  fileURLToPath(new URL("./data-folder-lock.ts", import.meta.url)),
).href;
// The workspace root: tsx is resolved from there.
const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

const folders: { remove(): void }[] = [];
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  for (const folder of folders.splice(0)) folder.remove();
});

function folder(): string {
  const made = temporaryFolder("reconciler-lock-");
  folders.push(made);
  return made.path;
}

function lockFileOf(dir: string): { pid: number; token: string } {
  return JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8"));
}

/** A pid that was a process's and is no more (reaped). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((r) => child.on("exit", r));
  return child.pid as number;
}

/**
 * A separate process that takes the folder's lock once `at` (epoch ms) has come, prints
 * "locked" or "refused <pid>", then stays until killed.
 */
function lockingProcess(dir: string, at = 0): { child: ChildProcess; said: Promise<string> } {
  const code = `
    const { lockDataFolder } = await import(${JSON.stringify(LOCK_MODULE)});
    await new Promise((r) => setTimeout(r, Math.max(0, ${at} - Date.now())));
    try {
      await lockDataFolder(${JSON.stringify(dir)});
      console.log("locked");
    } catch (error) {
      console.log(error.name === "DataFolderInUseError" ? "refused " + error.pid : String(error));
    }
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  const said = new Promise<string>((resolve, reject) => {
    let text = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      if (text.includes("\n")) resolve(text.trim());
    });
    child.on("exit", (c) => reject(new Error(`the locking process ended (${c}) before saying`)));
  });
  return { child, said };
}

async function killed(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.on("exit", r));
  child.kill("SIGKILL");
  await exited;
}

describe("the PGlite data folder lock", () => {
  it("refuses a second open of the folder at once, naming it and the holder; close releases", async () => {
    const dir = folder();
    const first = await openDatabase({ dataDir: dir });
    try {
      expect(lockFileOf(dir).pid).toBe(process.pid);
      // Answered while the holder is still open (it closes below): an open that waited for
      // the holder would never come back, and the test would time out.
      const error = await openDatabase({ dataDir: dir }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DataFolderInUseError);
      expect(error).toMatchObject({ folder: dir, pid: process.pid });
      expect(String(error)).toContain(
        `the data folder ${dir} is in use by process ${process.pid} (another reconciler command, or the console); stop it first`,
      );
      // The refused open left the holder's lock and database alone.
      expect(lockFileOf(dir).pid).toBe(process.pid);
      expect(await queryRows(first.db, sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
    } finally {
      await first.close();
    }
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    await first.close(); // a second close is harmless
    const again = await openDatabase({ dataDir: dir });
    await again.close();
    // Nothing of the lock is left in the folder.
    expect(readdirSync(dir).filter((name) => name.startsWith(LOCK_FILE))).toEqual([]);
  }, 120_000);

  it("is refused by a lock another living process holds, and takes it over once that one is killed", async () => {
    const dir = folder();
    const holder = lockingProcess(dir);
    expect(await holder.said).toBe("locked");
    const pid = holder.child.pid as number;
    const refused = await openDatabase({ dataDir: dir }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ name: "DataFolderInUseError", folder: dir, pid });
    expect(String(refused)).toContain(`is in use by process ${pid}`);
    await killed(holder.child); // kill -9: its lock file stays behind
    expect(lockFileOf(dir).pid).toBe(pid);
    const database = await openDatabase({ dataDir: dir });
    try {
      expect(lockFileOf(dir).pid).toBe(process.pid);
    } finally {
      await database.close();
    }
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  }, 120_000);

  it("takes over the lock of a dead pid, and of an earlier process that had this pid", async () => {
    const dir = folder();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: await deadPid(), token: "old" }));
    const lock = await lockDataFolder(dir);
    expect(lockFileOf(dir).pid).toBe(process.pid);
    lock.release();
    // A container restarted: the new process has the pid the old one had.
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: process.pid, token: "before" }));
    const again = await lockDataFolder(dir);
    expect(lockFileOf(dir).token).not.toBe("before");
    await expect(lockDataFolder(dir)).rejects.toBeInstanceOf(DataFolderInUseError);
    again.release();
    again.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  });

  // The interleaving two takers could meet: B read the dead lock, A removed it and took the
  // folder, then B removes "the dead lock", which is A's now; or A is removing it right then.
  it("removes a dead lock only while it is unchanged, and one taker at a time", async () => {
    const dir = folder();
    const dead = JSON.stringify({ pid: await deadPid(), token: "dead" });
    writeFileSync(join(dir, LOCK_FILE), dead);
    const taken = await lockDataFolder(dir); // A took over
    expect(removeDeadLock(dir, dead)).toBe(true); // B, late: looked, left A's lock alone
    expect(lockFileOf(dir).pid).toBe(process.pid);
    taken.release();
    writeFileSync(join(dir, LOCK_FILE), dead);
    writeFileSync(join(dir, `${LOCK_FILE}.takeover`), "1\n"); // A is taking over right now
    expect(removeDeadLock(dir, dead)).toBe(false);
    expect(readFileSync(join(dir, LOCK_FILE), "utf8")).toBe(dead);
    // A takeover file left by a process that died during one does not block for ever.
    const opened = await lockDataFolder(dir);
    expect(lockFileOf(dir).pid).toBe(process.pid);
    opened.release();
    expect(readdirSync(dir)).toEqual([]);
  }, 30_000);

  it("lets one process only take over a dead lock that several find at once", async () => {
    const dir = folder();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: await deadPid(), token: "dead" }));
    const at = Date.now() + 4_000; // all loaded by then
    const racers = Array.from({ length: 6 }, () => lockingProcess(dir, at));
    const said = await Promise.all(racers.map((r) => r.said));
    const winners = racers.filter((_, i) => said[i] === "locked");
    expect(winners, said.join(", ")).toHaveLength(1);
    const winner = winners[0]?.child.pid;
    expect(said.filter((s) => s !== "locked")).toEqual(Array(5).fill(`refused ${winner}`));
    expect(lockFileOf(dir).pid).toBe(winner);
  }, 60_000);
});

describe("the CLI on a data folder in use", () => {
  it("match exits 1 with its summary line and the reason; breaks comment exits 1", async () => {
    const dir = folder();
    const lock = await lockDataFolder(dir); // as the console would
    try {
      const match = fakeIo();
      expect(await main(["match", "--data-dir", dir], match.io)).toBe(EXIT.failed);
      expect(logged(match.out, "cycle finished")).toEqual([
        expect.objectContaining({
          verdict: "failed",
          exitCode: EXIT.failed,
          match: { error: expect.stringContaining(`the data folder ${dir} is in use by process`) },
        }),
      ]);
      expect(logged(match.err, "cycle failed")).toEqual([
        expect.objectContaining({ error: expect.stringContaining("DataFolderInUseError") }),
      ]);
      const comment = fakeIo();
      const code = await main(
        ["breaks", "comment", "1", "seen", "--as", "alice", "--data-dir", dir],
        comment.io,
      );
      expect(code).toBe(EXIT.failed);
      expect(comment.err.join("\n")).toContain(`is in use by process ${process.pid}`);
      expect(comment.out).toEqual([]);
    } finally {
      lock.release();
    }
  }, 60_000);

  it("schedule reports a failed tick while the folder is held, and goes on", async () => {
    const dir = folder();
    const lock = await lockDataFolder(dir);
    const { io, err, out } = fakeIo();
    const stop = new AbortController();
    const done = main(
      ["schedule", "--no-sync", "--cron", "* * * * * *", "--run-now", "--data-dir", dir],
      { ...io, signal: stop.signal },
    );
    try {
      for (let i = 0; i < 100 && logged(out, "cycle finished").length < 2; i++)
        await new Promise((r) => setTimeout(r, 100));
    } finally {
      stop.abort();
      lock.release();
    }
    expect(await done).toBe(EXIT.ok);
    const summaries = logged(out, "cycle finished");
    expect(summaries.length).toBeGreaterThanOrEqual(2);
    for (const summary of summaries)
      expect(summary).toMatchObject({ verdict: "failed", exitCode: EXIT.failed });
    expect(logged(err, "scheduled cycle failed")[0]).toMatchObject({
      error: expect.stringContaining(`the data folder ${dir} is in use`),
    });
  }, 60_000);
});
