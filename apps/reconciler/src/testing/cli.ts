// Test support: the CLI as a child process (source through tsx), its output lines, its exit.
import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CommandIo } from "../cli/command";

const MAIN = fileURLToPath(new URL("../cli/main.ts", import.meta.url));
// The workspace root: tsx is resolved from there.
const ROOT = join(dirname(MAIN), "..", "..", "..", "..");

export interface CliProcess {
  child: ChildProcess;
  /** stdout and stderr lines so far, in arrival order per stream. */
  out: string[];
  err: string[];
  /** Exit code (null when killed by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /**
   * Resolves when `count` lines of stderr (or of `from`) match; rejects, with the last lines
   * the process printed, if it ends first or `timeoutMs` passes (a hang shows what it did).
   */
  waitFor(
    match: (line: string) => boolean,
    count?: number,
    from?: "out" | "err",
    timeoutMs?: number,
  ): Promise<void>;
}

export function spawnCli(args: string[], env: Record<string, string | undefined>): CliProcess {
  const child = spawn(
    process.execPath,
    ["--conditions=@merchantkit/source", "--import", "tsx", MAIN, ...args],
    // Without CI and DATABASE_URL from the test runner unless the test passes them.
    { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, stdio: "pipe" },
  );
  const out: string[] = [];
  const err: string[] = [];
  const waiters = new Set<() => void>();
  const collect = (into: string[]) => {
    let rest = "";
    return (chunk: Buffer) => {
      const text = rest + chunk.toString("utf8");
      const lines = text.split("\n");
      rest = lines.pop() ?? "";
      into.push(...lines);
      for (const w of waiters) w();
    };
  };
  child.stdout?.on("data", collect(out));
  child.stderr?.on("data", collect(err));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => {
      resolve({ code, signal });
      for (const w of waiters) w();
    }),
  );
  let ended = false;
  void exited.then(() => {
    ended = true;
  });
  return {
    child,
    out,
    err,
    exited,
    waitFor(match, count = 1, from = "err", timeoutMs = 120_000) {
      const lines = from === "out" ? out : err;
      return new Promise((resolve, reject) => {
        const fail = (why: string) => {
          waiters.delete(check);
          clearTimeout(timer);
          // node-cron's own overlap warnings say nothing the worker's log does not.
          const said = err.filter((line) => !line.includes("[NODE-CRON]"));
          const tail = [...said.slice(-30), "--- stdout ---", ...out.slice(-5)].join("\n");
          if (process.env.CLI_DUMP)
            writeFileSync(
              `${process.env.CLI_DUMP}-${child.pid}.log`,
              [...err, "--- stdout ---", ...out].join("\n"),
            );
          reject(new Error(`${why}:\n${tail}`));
        };
        const check = () => {
          if (lines.filter(match).length >= count) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve();
          } else if (ended) fail("the CLI exited first");
        };
        const timer = setTimeout(() => fail(`no such line after ${timeoutMs} ms`), timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}

/** The JSON log lines of a run whose `msg` is `msg`. */
export function logged(lines: readonly string[], msg: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const line of lines) {
    if (!line.startsWith("{")) continue;
    try {
      const event = JSON.parse(line) as Record<string, unknown>;
      if (event.msg === msg) out.push(event);
    } catch {
      // not a log line
    }
  }
  return out;
}

/** A CommandIo for main() in process (not a TTY), with the lines it printed. */
export function fakeIo(env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIo = {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    isTty: false,
    env,
    signal: new AbortController().signal,
  };
  return { io, out, err };
}
