// An exclusive lock on a PGlite data folder for as long as a database is open on it. PGlite
// locks nothing: a second process on the same files (a `match` while the console is up)
// corrupts the folder or loses one process's writes. The lock is a file in the folder naming its holder's pid; a
// second open, in this process or another, is refused at once while the holder lives, and the
// lock of a holder that died (kill -9, a container restart) is taken over.
import { randomBytes } from "node:crypto";
import { linkSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

/** The lock file's name in the data folder. */
export const LOCK_FILE = "reconciler.lock";
// Held for the few file operations that remove a dead holder's lock, so that two processes
// taking over the same one cannot both end up holding the folder.
const TAKEOVER_FILE = `${LOCK_FILE}.takeover`;
// A takeover is a few file operations: a takeover file older than this was left by a process
// that died during one.
const TAKEOVER_STALE_MS = 2_000;
// A lock file without its content yet is being written (the fallback without hard links);
// one still empty after this was left by a process that died while writing it.
const UNWRITTEN_STALE_MS = 2_000;
// How long the lock may keep changing hands (takeovers under way) before the open gives up.
const SETTLE_MS = 5_000;
const RETRY_MS = 10;

/** The refusal to open a data folder another open database holds. */
export class DataFolderInUseError extends Error {
  override name = "DataFolderInUseError";
  constructor(
    readonly folder: string,
    readonly pid: number,
  ) {
    super(
      `the data folder ${folder} is in use by process ${pid} (another reconciler command, or the console); stop it first, or use a Postgres server (DATABASE_URL), where commands can run side by side`,
    );
  }
}

interface DataFolderLock {
  readonly folder: string;
  /** Removes the lock file if it is still this lock's; later calls do nothing. */
  release(): void;
}

interface Holder {
  pid: number;
  token: string;
  /** The holder's start time (Linux clock ticks since boot), to tell a reused pid. */
  started?: string | undefined;
}

// The tokens of the locks this process holds: a lock file naming this process's pid whose
// token is not here was left by an earlier process that had the same pid (a container's
// restart), and is taken over.
const heldHere = new Map<string, string>(); // lock file → token
let exitHookInstalled = false;

/**
 * Takes the lock on `folder` (which must exist), or throws DataFolderInUseError naming the
 * holder when a living process holds it.
 */
export async function lockDataFolder(folder: string): Promise<DataFolderLock> {
  const absolute = resolve(folder);
  const lockPath = join(absolute, LOCK_FILE);
  const mine: Holder = {
    pid: process.pid,
    token: randomBytes(12).toString("hex"),
    started: startTimeOf(process.pid),
  };
  const content = `${JSON.stringify(mine)}\n`;
  const deadline = Date.now() + SETTLE_MS;
  while (Date.now() < deadline) {
    if (createExclusively(absolute, lockPath, content)) {
      heldHere.set(lockPath, mine.token);
      installExitHook();
      let released = false;
      return {
        folder: absolute,
        release() {
          if (released) return;
          released = true;
          if (heldHere.get(lockPath) === mine.token) heldHere.delete(lockPath);
          // Removed only while it is still this lock (taken over, it is another process's).
          if (readHolder(lockPath)?.token === mine.token) removeQuietly(lockPath);
        },
      };
    }
    const seen = readLockFile(lockPath);
    if (seen === undefined) continue; // released meanwhile: try again at once
    const holder = parseHolder(seen.text);
    if (holder && isAlive(holder, lockPath)) throw new DataFolderInUseError(absolute, holder.pid);
    if (!holder && Date.now() - seen.mtimeMs < UNWRITTEN_STALE_MS) {
      await sleep(RETRY_MS); // being written: read it again
      continue;
    }
    // Dead (or never written): removed under the takeover file, only if it is still the same.
    if (!removeDeadLock(absolute, seen.text)) await sleep(RETRY_MS);
  }
  // Never reached in practice: the folder keeps changing hands under us.
  const holder = readHolder(lockPath);
  throw new DataFolderInUseError(absolute, holder?.pid ?? 0);
}

/** Creates the lock file with its content in one step; false when one exists. */
function createExclusively(folder: string, lockPath: string, content: string): boolean {
  // Written under a name of its own, then linked: the lock file never exists half-written.
  const temporary = join(folder, `${LOCK_FILE}.${process.pid}.${randomBytes(6).toString("hex")}`);
  try {
    writeFileSync(temporary, content, { flag: "wx" });
  } catch {
    return createWithoutLink(lockPath, content);
  }
  try {
    linkSync(temporary, lockPath);
    return true;
  } catch (error) {
    if (codeOf(error) === "EEXIST") return false;
    // A file system without hard links.
    return createWithoutLink(lockPath, content);
  } finally {
    removeQuietly(temporary);
  }
}

function createWithoutLink(lockPath: string, content: string): boolean {
  try {
    writeFileSync(lockPath, content, { flag: "wx" });
    return true;
  } catch (error) {
    if (codeOf(error) === "EEXIST") return false;
    throw error;
  }
}

/**
 * Removes a dead holder's lock file from `folder` if it still holds `seen`, under the takeover
 * file: two processes finding the same dead lock cannot both remove it, nor one remove the
 * lock the other has just taken. Answers whether it got to look (false: another process is
 * taking over; look again). Exported for the tests.
 */
export function removeDeadLock(folder: string, seen: string): boolean {
  const lockPath = join(folder, LOCK_FILE);
  const takeoverPath = join(folder, TAKEOVER_FILE);
  try {
    writeFileSync(takeoverPath, `${process.pid}\n`, { flag: "wx" });
  } catch (error) {
    if (codeOf(error) !== "EEXIST") throw error;
    const left = readLockFile(takeoverPath);
    if (left && Date.now() - left.mtimeMs > TAKEOVER_STALE_MS) removeQuietly(takeoverPath);
    return false;
  }
  try {
    if (readLockFile(lockPath)?.text === seen) removeQuietly(lockPath);
  } finally {
    removeQuietly(takeoverPath);
  }
  return true;
}

function isAlive(holder: Holder, lockPath: string): boolean {
  if (holder.pid === process.pid) return heldHere.get(lockPath) === holder.token;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: it exists, under another user.
    if (codeOf(error) === "ESRCH") return false;
  }
  // The pid is someone's: the holder's, unless it died and the pid was given again.
  const stat = procStat(holder.pid);
  if (stat?.state === "Z") return false; // killed, not yet reaped
  if (holder.started && stat && stat.started !== holder.started) return false;
  return true;
}

/** State and start time from /proc/<pid>/stat (Linux), or undefined elsewhere. */
function procStat(pid: number): { state: string; started: string } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // After the command name (in parentheses, which may hold spaces): state is field 3,
    // starttime field 22.
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    const state = fields[0];
    const started = fields[19];
    return state && started ? { state, started } : undefined;
  } catch {
    return undefined;
  }
}

function startTimeOf(pid: number): string | undefined {
  return procStat(pid)?.started;
}

function parseHolder(text: string): Holder | undefined {
  try {
    const value = JSON.parse(text) as Partial<Holder>;
    if (typeof value.pid !== "number" || !Number.isInteger(value.pid) || value.pid <= 0)
      return undefined;
    if (typeof value.token !== "string") return undefined;
    return {
      pid: value.pid,
      token: value.token,
      started: typeof value.started === "string" ? value.started : undefined,
    };
  } catch {
    return undefined;
  }
}

function readHolder(lockPath: string): Holder | undefined {
  const seen = readLockFile(lockPath);
  return seen ? parseHolder(seen.text) : undefined;
}

function readLockFile(path: string): { text: string; mtimeMs: number } | undefined {
  try {
    const { mtimeMs } = statSync(path);
    return { text: readFileSync(path, "utf8"), mtimeMs };
  } catch (error) {
    if (codeOf(error) === "ENOENT") return undefined;
    throw error;
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // gone already
  }
}

/** Locks still held when the process exits (an open database never closed) are removed. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const [lockPath, token] of heldHere)
      if (readHolder(lockPath)?.token === token) removeQuietly(lockPath);
    heldHere.clear();
  });
}

function codeOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
