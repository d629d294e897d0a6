// What `run`, `match` and each tick of `schedule` share: one cycle (ledger in → sync → match →
// report) on an open database, its readable lines on a terminal, and always its one JSON
// summary line on stdout, with the exit code it stands for.

import type { ReconcilerConfig } from "../../config/reconciler-config";
import { cycleExitCode, cycleSummaryLine } from "../../cycle/cycle-summary";
import { runCycle } from "../../cycle/run-cycle";
import type { Database } from "../../db/database";
import { matchResultLines } from "../../match/format-result";
import type { MatchOptions } from "../../match/match-options";
import type { SyncContext, SyncOptions } from "../../sync/run-sync";
import type { CommandIo } from "../command";
import { printSummary } from "./sync-run";

export interface CycleRun {
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
  if (io.isTty) {
    if (typeof result.sync === "object" && !("error" in result.sync)) printSummary(io, result.sync);
    if (typeof result.match === "object" && !("error" in result.match))
      for (const line of matchResultLines(result.match, true)) io.out(line);
  }
  const code = cycleExitCode(result);
  io.out(cycleSummaryLine(result, code));
  return code;
}
