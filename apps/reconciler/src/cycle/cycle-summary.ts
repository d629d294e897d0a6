// A cycle's one JSON summary line and its exit code: what an unattended run says about itself.

import { EXIT } from "../exit-codes";
import type { LedgerIntake } from "../ledger/ledger-source";
import { exitCodeOf } from "../sync/exit-code";
import { type CycleResult, ledgerBusy } from "./run-cycle";

function failed(step: unknown): step is { error: string } {
  return typeof step === "object" && step !== null && "error" in step;
}

const ledgerSummary = (ledger: CycleResult["ledger"]) =>
  Object.fromEntries(Object.entries(ledger).map(([name, intake]) => [name, intake.summary]));

function syncSummary(sync: CycleResult["sync"]) {
  if (sync === "skipped" || failed(sync)) return sync;
  const streams: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(sync.streams))
    streams[name] = {
      outcome: s.outcome,
      windows: s.windows,
      failedWindows: s.failedWindows,
      inserted: s.inserted,
      updated: s.updated,
      lagSeconds: s.lagSeconds,
      unread: s.unread,
      ...(s.error ? { error: s.error } : {}),
    };
  return { outcome: sync.outcome, unread: sync.unread, streams };
}

const anyLedger = (ledger: CycleResult["ledger"], state: LedgerIntake["state"]) =>
  Object.values(ledger).some((intake) => intake.state === state);

/** True when a ledger source refused input: a file moved to rejected/, or the query's rows. */
const ledgerRefused = (ledger: CycleResult["ledger"]) => anyLedger(ledger, "refused");

/**
 * True when a ledger source could not run (the folder missing, the ledger database unreachable,
 * our database failing mid-import): a failure (exit 1), not input someone has to fix (exit 5).
 */
const ledgerFailed = (ledger: CycleResult["ledger"]) => anyLedger(ledger, "failed");

/**
 * The exit code: 0 only when every configured step did all of its work; a stop by signal, a
 * step that failed, data left unread (a refused sub-merchant's parked serviceIds included) or
 * refused ledger input never exit 0.
 */
export function cycleExitCode(result: CycleResult): number {
  const { sync, match, report } = result;
  // Refused sub-merchants that could not be read: the database failed the cycle, whatever else.
  if (
    failed(sync) ||
    failed(match) ||
    failed(report) ||
    ledgerFailed(result.ledger) ||
    result.entitiesRefused === null
  )
    return EXIT.failed;
  if (sync !== "skipped") {
    const code = exitCodeOf(sync);
    if (code !== EXIT.ok) return code;
  }
  if (result.interrupted) return EXIT.stopped;
  // Ledger files another worker was taking in: this cycle did not match them (exit 3, like
  // a sync another worker holds).
  if (ledgerBusy(result.ledger)) return EXIT.unread;
  // A refused sub-merchant's postings are unread however the sync went (exit 3, like `status`).
  if (result.entitiesRefused?.length) return EXIT.unread;
  if (ledgerRefused(result.ledger)) return EXIT.ledgerRejected;
  // Incomplete without unread sync data: the sync is lagging or another worker is mid-run.
  if (match !== "skipped" && match.verdict === "incomplete") return EXIT.unread;
  return EXIT.ok;
}

/**
 * The result of a cycle that threw before it could report itself (say, the database still
 * away when a `schedule` tick reopens it): nothing was done, so sync and match count as failed
 * with that error, and its summary line says verdict "failed", exit 1, like any failed step.
 */
export function failedCycle(error: string): CycleResult {
  return {
    ledger: {},
    sync: { error },
    match: { error },
    report: undefined,
    entitiesRefused: null,
    interrupted: false,
    durationsMs: { ledger: 0, sync: 0, match: 0, report: 0, total: 0 },
  };
}

/** The cycle's one summary line (JSON): verdict, open breaks, ledger, sync, durations, exit. */
export function cycleSummaryLine(result: CycleResult, exitCode: number): string {
  const match = result.match;
  const matched = match !== "skipped" && !failed(match) ? match : undefined;
  const waited = match === "skipped" && !result.interrupted && ledgerBusy(result.ledger);
  return JSON.stringify({
    msg: "cycle finished",
    verdict: matched?.verdict ?? (failed(match) ? "failed" : waited ? "incomplete" : "not matched"),
    // What the tables hold after the tick. An incomplete match keeps nothing (it is rolled
    // back): its own figures, which it would have written, are in match_runs.stats; with no
    // complete run before it there are no figures to print (null).
    openBreaks: matched?.stored?.openBreaks ?? null,
    pendingItems: matched?.stored?.pendingItems ?? null,
    matchRolledBack: matched ? !matched.persisted : false,
    reasons:
      matched?.reasons ??
      (waited
        ? [
            `another worker is taking the ledger ${Object.keys(result.ledger)
              .filter((name) => result.ledger[name]?.state === "busy")
              .join(" and ")} in: not matched; it matches after`,
          ]
        : []),
    ledger: ledgerSummary(result.ledger),
    sync: syncSummary(result.sync),
    entitiesRefused: result.entitiesRefused,
    match: failed(match)
      ? { error: match.error }
      : matched
        ? {
            runId: matched.runId,
            // How the run matched: reused the last results, re-matched what changed, or all.
            mode: matched.reusedRunId ? "reused" : matched.incremental ? "incremental" : "full",
            records: matched.scopeRecords,
          }
        : match,
    report: result.report,
    interrupted: result.interrupted,
    durationsMs: result.durationsMs,
    exitCode,
  });
}
