// What `run`, `match` and each tick of `schedule` share: one cycle (ledger in → sync → match →
// report) on an open database, its readable lines on a terminal, and always its one JSON
// summary line on stdout, with the exit code it stands for.

import { ConfigError } from "../../config/load-config";
import type { ReconcilerConfig } from "../../config/reconciler-config";
import { cycleExitCode, cycleSummaryLine, failedCycle } from "../../cycle/cycle-summary";
import { runCycle } from "../../cycle/run-cycle";
import type { Database } from "../../db/database";
import { logEvent } from "../../log-event";
import { matchResultLines } from "../../match/format-result";
import type { MatchOptions } from "../../match/match-options";
import { errorText } from "../../store/error-text";
import type { SyncContext, SyncOptions } from "../../sync/run-sync";
import type { CommandIo } from "../command";
import { logSink } from "../log-sink";
import { printSummary } from "./sync-run";

interface CycleRun {
  config: ReconcilerConfig;
  database: Database;
  sync: SyncContext | undefined;
  syncOptions?: Pick<SyncOptions, "kind" | "onProgress" | "streams">;
  match: MatchOptions;
}

/** Runs one cycle, prints what it did, and answers its exit code. */
export async function cycleOnce(io: CommandIo, run: CycleRun): Promise<number> {
  const result = await runCycle(run.database.db, run.config, {
    sync: run.sync,
    syncOptions: run.syncOptions,
    match: run.match,
    signal: io.signal,
  });
  for (const intake of Object.values(result.ledger)) intake.logLines(logSink(io));
  if (io.isTty) {
    if (typeof result.sync === "object" && !("error" in result.sync)) printSummary(io, result.sync);
    if (typeof result.match === "object" && !("error" in result.match))
      for (const line of matchResultLines(result.match, true)) io.out(line);
  }
  const code = cycleExitCode(result);
  io.out(cycleSummaryLine(result, code));
  return code;
}

/**
 * Runs `cycle` (one tick of `schedule`: reopen the database if needed, then cycleOnce; or
 * `run`: open the database, then cycleOnce) and answers its exit code. A tick that throws before its cycle could report itself is reported
 * anyway: an error line, then the summary line with verdict "failed" and exit 1, so whatever
 * watches the summary lines sees every tick, including the ones that could not run.
 */
export async function reportedCycle(
  io: CommandIo,
  log: (line: string) => void,
  cycle: () => Promise<number>,
  failure = "scheduled cycle failed",
): Promise<number> {
  try {
    return await cycle();
  } catch (error) {
    // A configuration the cycle cannot use is the command line's error (exit 2, naming the
    // setting), not a failed cycle.
    if (error instanceof ConfigError) throw error;
    const text = errorText(error);
    logEvent({ log }, "error", failure, { error: text });
    const result = failedCycle(text);
    const code = cycleExitCode(result);
    io.out(cycleSummaryLine(result, code));
    return code;
  }
}
