// One reconciliation cycle — ledger in, sync, match, report — as `reconciler run` does it once
// and `reconciler schedule` on every tick. A step that fails is reported and the later steps
// still do what they safely can: a rejected ledger file does not stop the sync or the match; a
// failed sync window makes the match verdict incomplete (runMatch sees it). Each step commits
// its own work atomically, so nothing is half-written whichever step fails.
import type { ReconcilerConfig } from "../config/reconciler-config";
import type { Db } from "../db/database";
import { describeDatabaseUrl } from "../db/reach-database";
import { type FolderIntake, intakeLedgerFolder } from "../ledger/folder-source";
import { intakeLedgerQuery, LedgerQueryError, type QueryIntake } from "../ledger/query-source";
import type { MatchOptions } from "../match/match-options";
import { type MatchRunResult, runMatch } from "../match/run-match";
import { errorText } from "../store/error-text";
import { STREAM_BUSY, withStreamLock } from "../store/stream-lock";
import { runSync, type SyncContext, type SyncOptions, type SyncSummary } from "../sync/run-sync";
import { writeReport } from "./write-report";

export interface CycleOptions {
  /** The sync's context; undefined skips the sync (`reconciler match`, `run --no-sync`). */
  sync: SyncContext | undefined;
  syncOptions?: Pick<SyncOptions, "kind" | "onProgress" | "streams">;
  match?: MatchOptions;
  signal?: AbortSignal;
}

/** What each step did, or the error that stopped it; a step not configured is absent. */
export interface CycleResult {
  ledger: {
    folder?: FolderIntake | { error: string } | "busy";
    /** refused: the rows broke the rules (input to fix); without it the query could not run. */
    query?: QueryIntake | { source: string; error: string; refused?: true };
  };
  sync: SyncSummary | { error: string } | "skipped";
  match: MatchRunResult | { error: string } | "skipped";
  report: { files: string[] } | { error: string } | undefined;
  interrupted: boolean;
  durationsMs: { ledger: number; sync: number; match: number; report: number; total: number };
}

async function timed<T>(fn: () => Promise<T>): Promise<[T | { error: string }, number]> {
  const t0 = performance.now();
  try {
    return [await fn(), Math.round(performance.now() - t0)];
  } catch (error) {
    return [{ error: errorText(error) }, Math.round(performance.now() - t0)];
  }
}

/** The configured ledger sources, folder first; one worker at a time takes the folder in. */
async function takeLedger(db: Db, config: ReconcilerConfig): Promise<CycleResult["ledger"]> {
  const ledger: CycleResult["ledger"] = {};
  if (config.ledgerDir) {
    const dir = config.ledgerDir;
    const [folder] = await timed(() =>
      withStreamLock(db, "ledger-folder", () => intakeLedgerFolder(db, dir)),
    );
    ledger.folder = folder === STREAM_BUSY ? "busy" : folder;
  }
  if (config.ledgerQuery) {
    const source = config.ledgerQuery;
    ledger.query = await intakeLedgerQuery(db, source).catch((error: unknown) => ({
      // Named by host, port and database (the URL may hold a password), as the intake does.
      source: describeDatabaseUrl(source.url),
      error: errorText(error),
      ...(error instanceof LedgerQueryError && error.kind === "refused"
        ? { refused: true as const }
        : {}),
    }));
  }
  return ledger;
}

/** True when another worker held the ledger folder: its files are not all in yet. */
export const ledgerBusy = (ledger: CycleResult["ledger"]) => ledger.folder === "busy";

/**
 * Runs the whole cycle once. Never throws for a step's failure (it is in the result); throws
 * only for a programming error. The caller turns the result into a summary line and exit code.
 */
export async function runCycle(
  db: Db,
  config: ReconcilerConfig,
  opts: CycleOptions,
): Promise<CycleResult> {
  const started = performance.now();
  const [ledger, ledgerMs] = await timed(() => takeLedger(db, config));
  const ledgerResult: CycleResult["ledger"] = "error" in ledger ? { folder: ledger } : ledger;

  let sync: CycleResult["sync"] = "skipped";
  let syncMs = 0;
  if (opts.sync) {
    const ctx = opts.sync;
    [sync, syncMs] = await timed(() => runSync(ctx, { ...opts.syncOptions, signal: opts.signal }));
  }
  const interrupted = opts.signal?.aborted === true;

  // A stopped cycle leaves matching and the report to the next one: the sync did not finish.
  // So does one that found another worker taking the ledger folder in: matched now, the ledger
  // would lack the files that worker holds (breaks opened here, closed by its next match), and
  // it matches once they are in. The cycle is then incomplete (ledgerBusy, cycle-summary.ts).
  let match: CycleResult["match"] = "skipped";
  let matchMs = 0;
  if (!interrupted && !ledgerBusy(ledgerResult))
    [match, matchMs] = await timed(() => runMatch(db, opts.match ?? {}));

  let report: CycleResult["report"];
  let reportMs = 0;
  if (config.reportDir && match !== "skipped" && !("error" in match)) {
    const dir = config.reportDir;
    const [written, ms] = await timed(() => writeReport(db, dir));
    report = "error" in written ? written : { files: written };
    reportMs = ms;
  }
  return {
    ledger: ledgerResult,
    sync,
    match,
    report,
    interrupted,
    durationsMs: {
      ledger: ledgerMs,
      sync: syncMs,
      match: matchMs,
      report: reportMs,
      total: Math.round(performance.now() - started),
    },
  };
}
