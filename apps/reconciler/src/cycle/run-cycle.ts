// One reconciliation cycle — ledger in, sync, match, report — as `reconciler run` does it once
// and `reconciler schedule` on every tick. A step that fails is reported and the later steps
// still do what they safely can: a rejected ledger file does not stop the sync or the match; a
// failed sync window makes the match verdict incomplete (runMatch sees it). Each step commits
// its own work atomically, so nothing is half-written whichever step fails. A failed or partial
// sync makes the match verdict incomplete however little sync_runs could record of it.
import type { ReconcilerConfig } from "../config/reconciler-config";
import type { Db } from "../db/database";
import type { LedgerIntake } from "../ledger/ledger-source";
import { LEDGER_SOURCES } from "../ledger/sources";
import type { MatchOptions } from "../match/match-options";
import { type MatchRunResult, runMatch } from "../match/run-match";
import { errorText } from "../store/error-text";
import { refusedEntities } from "../store/service-ids";
import { runSync, type SyncContext, type SyncOptions, type SyncSummary } from "../sync/run-sync";
import { writeReport } from "./write-report";

interface CycleOptions {
  /** The sync's context; undefined skips the sync (`reconciler match`, `run --no-sync`). */
  sync: SyncContext | undefined;
  syncOptions?: Pick<SyncOptions, "kind" | "onProgress" | "streams">;
  match?: MatchOptions;
  signal?: AbortSignal;
}

/** What each step did, or the error that stopped it; a step not configured is absent. */
export interface CycleResult {
  /** Each configured ledger source's intake, by its name (ledger/sources/). */
  ledger: Record<string, LedgerIntake>;
  sync: SyncSummary | { error: string } | "skipped";
  match: MatchRunResult | { error: string } | "skipped";
  report: { files: string[] } | { error: string } | undefined;
  /**
   * The sub-merchants the service would not let the merchant act for, with how many of their
   * serviceIds are parked for it, as the tables hold them after the sync (this cycle's refusal or
   * an earlier one's); null when they could not be read (the database gone: a step failed too).
   */
  entitiesRefused: { entity: string; serviceIds: number }[] | null;
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

/** Takes in every configured ledger source, in LEDGER_SOURCES' order. */
async function takeLedger(db: Db, config: ReconcilerConfig): Promise<CycleResult["ledger"]> {
  const ledger: CycleResult["ledger"] = {};
  for (const source of LEDGER_SOURCES) {
    const intake = await source.intake(db, config);
    if (intake) ledger[source.name] = intake;
  }
  return ledger;
}

const failedIntake = (error: string): LedgerIntake => ({
  state: "failed",
  summary: { error },
  logLines: () => {},
});

/** True when another worker held a ledger source: its entries are not all in yet. */
export const ledgerBusy = (ledger: CycleResult["ledger"]) =>
  Object.values(ledger).some((intake) => intake.state === "busy");

/**
 * Why this cycle's sync leaves the provider data incomplete: a sync that could not run, or each
 * stream that ended failed or partial. The match takes these as its own reasons: a stream that
 * failed before it could record its run (the database cut at its sync_runs update) leaves
 * sync_runs saying the previous run went well, and the match would judge data nothing synced.
 */
export function syncReasons(sync: CycleResult["sync"]): string[] {
  if (sync === "skipped") return [];
  if ("error" in sync) return [`this cycle's sync failed: ${sync.error.slice(0, 200)}`];
  if (sync.outcome === "ok") return [];
  const streams = Object.entries(sync.streams)
    .filter(([, s]) => s.outcome === "failed" || s.outcome === "partial")
    .map(
      ([stream, s]) =>
        `this cycle's sync of ${stream} ended ${s.outcome}${s.error ? `: ${s.error.slice(0, 200)}` : ""}`,
    );
  return streams.length > 0 ? streams : [`this cycle's sync ended ${sync.outcome}`];
}

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
  // Sources report their own failures; what is left is a programming error, shown as the
  // ledger step's.
  const ledgerResult = await takeLedger(db, config).catch(
    (error: unknown): CycleResult["ledger"] => ({ ledger: failedIntake(errorText(error)) }),
  );
  const ledgerMs = Math.round(performance.now() - started);

  let sync: CycleResult["sync"] = "skipped";
  let syncMs = 0;
  if (opts.sync) {
    const ctx = opts.sync;
    [sync, syncMs] = await timed(() => runSync(ctx, { ...opts.syncOptions, signal: opts.signal }));
  }
  const interrupted = opts.signal?.aborted === true;
  // Every cycle, not only the one whose sync was refused: a parked id is not asked for again, so
  // later syncs say nothing of it while its postings stay unread.
  const entitiesRefused = await refusedEntities(db).catch(() => null);

  // A stopped cycle leaves matching and the report to the next one: the sync did not finish.
  // So does one that found another worker taking a ledger source in: matched now, the ledger
  // would lack the entries that worker holds (breaks opened here, closed by its next match), and
  // it matches once they are in. The cycle is then incomplete (ledgerBusy, cycle-summary.ts).
  let match: CycleResult["match"] = "skipped";
  let matchMs = 0;
  if (!interrupted && !ledgerBusy(ledgerResult))
    [match, matchMs] = await timed(() =>
      runMatch(db, { ...opts.match, syncReasons: syncReasons(sync) }),
    );

  let report: CycleResult["report"];
  let reportMs = 0;
  if (config.reportDir && match !== "skipped" && !("error" in match)) {
    const dir = config.reportDir;
    const [written, ms] = await timed(() => writeReport(db, dir, config.due));
    report = "error" in written ? written : { files: written };
    reportMs = ms;
  }
  return {
    ledger: ledgerResult,
    sync,
    match,
    report,
    entitiesRefused,
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
