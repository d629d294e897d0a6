// runMatch: one match run over everything stored — passes, breaks, verdict — recorded in
// match_runs. Same data and options in, same matches and breaks out.
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { FINANCE_CHANGES_KEPT } from "../db/finance-changes";
import { isTrue, queryCount, queryRows, queryText } from "../db/query-rows";
import {
  changedEverything,
  changesExceed,
  lockChangeLog,
  settleChanges,
  usefulChanges,
} from "../store/change-log";
import { lapseChangedAcceptances } from "../workflow/lapse-acceptances";
import { lapseProposalDecisions } from "../workflow/lapse-proposal-decisions";
import { lapseManualMatches } from "../workflow/manual-match";
import { reverseResolvedWriteOffs } from "../workflow/resolved-write-offs";
import type { Verdict } from "./break-classes";
import { buildScope, incrementalBase } from "./incremental/incremental-run";
import {
  type MatchOptions,
  type PlanNode,
  type ResolvedMatchOptions,
  resolveMatchOptions,
} from "./match-options";
import { matchPasses } from "./match-passes";
import { type MatchStats, readRunStats, readStoredStats, readStoredWork } from "./match-stats";
import { persistStatements } from "./persist-statements";
import { passesPlanner, plannerSettings } from "./planner-settings";
import type { RunStatement } from "./statement";
import { syncProblems } from "./sync-health";
import {
  BUILDABLE,
  type ReusableRun,
  reusableRun,
  sameParams,
  statsOf,
  validUntil,
} from "./unchanged-run";

export type { MatchStats };

export interface MatchRunResult {
  runId: string;
  asOf: Date;
  verdict: Verdict;
  /** Why the run is incomplete; empty otherwise. */
  reasons: string[];
  stats: MatchStats;
  /** False when an incomplete run left matches and breaks as they were. */
  persisted: boolean;
  /**
   * The work the breaks tables hold once the run is over: `stats`' figures when it wrote its
   * results; when it kept nothing (not `persisted`), the last complete run's, while `stats`
   * are what it would have written; null when it kept nothing and no complete run came before
   * (the empty tables are nobody's figures).
   */
  stored: StoredWork | null;
  durationMs: number;
  /** Milliseconds per statement, for the bench and for --verbose. */
  timings: { name: string; ms: number }[];
  /** Set when nothing changed since that run: its matches and breaks were reused. */
  reusedRunId: string | null;
  /** True when the run re-matched only what changed since the last run (incremental/). */
  incremental: boolean;
  /** How many records (provider keys and ledger entries) an incremental run re-matched. */
  scopeRecords: number | null;
}

/**
 * The version of the matching rules: raised by a release that changes what a break holds (its
 * amount, its records), so that the first run after it matches in full instead of reusing or
 * building on results the earlier rules wrote. 2: missing_in_ledger and missing_at_provider
 * amounts include their fees. 3: a currency_mismatch's amount is the provider's side, in the
 * provider's currency (it was the ledger's amount).
 */
export const MATCH_RULES = 3;

/** The options a run records, and compares with the last run's before reusing its results. */
function runParams(o: ResolvedMatchOptions): Record<string, string | number> {
  return {
    rules: MATCH_RULES,
    ledgerGraceMs: o.ledgerGraceMs,
    providerGraceMs: o.providerGraceMs,
    pendingStatusGraceMs: o.pendingStatusGraceMs,
    staleAuthorizationMs: o.staleAuthorizationMs,
    tolerance: o.tolerance,
    toleranceWindowMs: o.toleranceWindowMs,
    maxSyncLagMs: o.maxSyncLagMs,
  };
}

type StoredWork = Awaited<ReturnType<typeof readStoredWork>>;

interface Outcome {
  stats: MatchStats;
  verdict: Verdict;
  persisted: boolean;
  fingerprint: string | null;
  validUntil: Date | null;
  reusedRunId: string | null;
  incremental: boolean;
  scopeRecords: number | null;
}

/**
 * Runs every pass in one transaction (the matcher's advisory lock held), then writes the
 * differences: matches and members that changed, breaks upserted by their stable id, breaks
 * no longer found resolved, acceptances that no longer fit lapsed. An incomplete run (sync
 * lag, failed windows, unfetched serviceIds) only records itself unless `onIncomplete: "all"`.
 * When nothing it depends on changed since the last run that wrote its results
 * (unchanged-run.ts), it reuses them unless `full`.
 */
/** Statements EXPLAIN takes: queries, writes and CREATE TABLE ... AS. */
const PLANNABLE =
  /^\s*(WITH|SELECT|INSERT|UPDATE|DELETE|CREATE TEMP TABLE \w+ ON COMMIT DROP AS)\b/i;

export async function runMatch(db: Db, options: MatchOptions = {}): Promise<MatchRunResult> {
  const o = resolveMatchOptions(options);
  const started = performance.now();
  const reasons = [...o.syncReasons, ...(await syncProblems(db, o.asOf, o.maxSyncLagMs))];
  const params = runParams(o);
  const [run] = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO match_runs (as_of, params) VALUES (${o.asOf.toISOString()}::timestamptz,
      ${JSON.stringify(params)}::jsonb) RETURNING id`,
  );
  const runId = run?.id as string;
  const timings: { name: string; ms: number }[] = [];
  const measured = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    const value = await work();
    timings.push({ name, ms: Math.round(performance.now() - t0) });
    return value;
  };
  const timed: RunStatement = async (tx, s) => {
    if (o.explain && PLANNABLE.test(s.text)) {
      const [row] = await queryText<{ "QUERY PLAN": unknown }>(
        tx,
        `EXPLAIN (FORMAT JSON) ${s.text}`,
      );
      const plan = row?.["QUERY PLAN"];
      const json = (typeof plan === "string" ? JSON.parse(plan) : plan) as { Plan: PlanNode }[];
      if (json[0]) o.explain(s.name, json[0].Plan);
    }
    const written = await measured(s.name, () => queryCount(tx, s.text));
    if (s.analyze && written > 0)
      await measured(`${s.name} (analyze)`, () => queryCount(tx, `ANALYZE ${s.analyze}`));
  };
  try {
    const outcome = await db.transaction(async (tx) => {
      const done = await matchInTransaction(tx, { runId, o, params, reasons, timed, measured });
      // In the run's transaction, after its break writes: a failed check rolls the run back
      // (it is not reused, the next run does it again), and an accept in flight on a break the
      // run rewrote either committed before those writes (checked here) or waits for the run and
      // sees its figures (workflow/break-actions.ts). Reused runs check too: cheap, and it only
      // touches acceptances that no longer fit.
      // A run that kept nothing (its results rolled back or never written) reads what the
      // tables still hold: a cycle's summary reports that, not the figures it did not keep.
      if (!done.persisted)
        return { ...done, stored: await measured("stored work", () => lastCompleteWork(tx)) };
      // Manual matches the run could not apply (a record changed): lapsed, audited.
      await measured("lapse manual matches", () => lapseManualMatches(tx, runId));
      // Proposal decisions whose records changed: stamped lapsed once, audited on their break.
      await measured("lapse proposal decisions", () => lapseProposalDecisions(tx, runId));
      await measured("lapse acceptances", () => lapseChangedAcceptances(tx, runId));
      // Write-offs of breaks the run resolved: no difference left, so their journal is reversed.
      await measured("reverse resolved write-offs", () => reverseResolvedWriteOffs(tx, runId));
      // The work left once acceptances are settled: an accepted break is not work (its lapse
      // makes it work again), and a reused run's figures may predate an accept or a reopen.
      const work = await measured("open work", () => readStoredWork(tx));
      const stats = { ...done.stats, ...work };
      return { ...done, stats, verdict: verdictOf(reasons, stats), stored: work };
    });
    const durationMs = Math.round(performance.now() - started);
    await queryRows(
      db,
      sql`UPDATE match_runs SET finished_at = now(), verdict = ${outcome.verdict},
        reasons = ${JSON.stringify(reasons)}::jsonb, stats = ${JSON.stringify(flatStats(outcome.stats))}::jsonb,
        duration_ms = ${durationMs}, fingerprint = ${outcome.fingerprint},
        valid_until = ${outcome.validUntil?.toISOString() ?? null}::timestamptz,
        reused_run_id = ${outcome.reusedRunId}::uuid WHERE id = ${runId}::uuid`,
    );
    // The log of changed days the console's kept figures follow (report/figures-cache.ts) keeps
    // a day of writes: a reader whose figures are older computes them whole again.
    await queryRows(db, sql`SELECT finance_prune_changes(${FINANCE_CHANGES_KEPT}::interval)`);
    const { stats, verdict, persisted, stored, reusedRunId, incremental, scopeRecords } = outcome;
    return {
      incremental,
      scopeRecords,
      runId,
      asOf: o.asOf,
      reasons,
      timings,
      durationMs,
      stats,
      verdict,
      persisted,
      stored,
      reusedRunId,
    };
  } catch (error) {
    await queryRows(
      db,
      sql`UPDATE match_runs SET finished_at = now(), reasons = ${JSON.stringify([
        ...reasons,
        `failed: ${error instanceof Error ? error.message : String(error)}`.slice(0, 500),
      ])}::jsonb WHERE id = ${runId}::uuid`,
    );
    throw error;
  }
}

/**
 * The run inside its transaction: reuse, incremental or full (the passes over the scope's
 * copies or over everything), then the writes of what changed.
 */
async function matchInTransaction(
  tx: Db,
  run: {
    runId: string;
    o: ResolvedMatchOptions;
    params: Record<string, string | number>;
    reasons: string[];
    timed: RunStatement;
    /** Times a step made of several queries, next to the statements' timings. */
    measured: <T>(name: string, work: () => Promise<T>) => Promise<T>;
  },
): Promise<Outcome> {
  const { runId, o, params, reasons, timed, measured } = run;
  for (const s of plannerSettings) await timed(tx, s);
  const reusable = reasons.length === 0 ? await reusableRun(tx, o, params) : undefined;
  // The log was empty: nothing to take, and a change committed since stays for the next run.
  if (reusable) return reuse(reusable);
  // An incomplete run (the sync behind) builds on the last complete one too: its figures then
  // cost what changed, tick after tick of an outage, instead of a full match each time.
  const candidate = await incrementalBase(tx, o, (last) => sameParams(last, params));
  // A log larger than an incremental run could use (a bulk load) is dropped, not taken row by
  // row: the run matches everything.
  const base =
    candidate && !(await changesExceed(tx, usefulChanges(candidate.records, o.maxScopeShare)))
      ? candidate
      : undefined;
  // What changed since the last run, held still until the run commits (settleChanges).
  await lockChangeLog(o.changeLogWaitMs, (s) => timed(tx, s));
  const passes = matchPasses(o);
  const scope =
    base && !(await changedEverything(tx))
      ? await buildScope(tx, o, base, timed, passes)
      : undefined;
  const scoped = scope !== undefined;
  for (const s of [passesPlanner.before, ...passes, passesPlanner.after]) await timed(tx, s);
  // An incremental run's tables hold its scope only: its figures are read once it has
  // written its results over the stored ones.
  let stats = await measured("figures", () => readRunStats(tx, scoped));
  const persisted = reasons.length === 0 || o.onIncomplete === "all";
  // An incremental run's figures are read off the stored results once its own are written:
  // one that may not keep them (incomplete) writes them in a savepoint and takes them back.
  if (persisted || scoped) {
    if (!persisted)
      await timed(tx, { name: "keep nothing (savepoint)", text: "SAVEPOINT mk_unkept" });
    const [stored] = await queryText<{ fresh: boolean }>(
      tx,
      "SELECT NOT EXISTS (SELECT 1 FROM match_pairs) AS fresh",
    );
    const fresh = isTrue(stored?.fresh);
    const exactPairs = stats.matched.exact ?? 0;
    const writes = persistStatements(runId, o, { fresh, scope: scope?.bounds, exactPairs });
    for (const s of writes) await timed(tx, s);
    const own = stats;
    // A run that keeps its results reads its open work after the lapses (runMatch).
    if (scoped)
      stats = await measured("stored figures", () => readStoredStats(tx, own, !persisted));
    if (!persisted)
      await timed(tx, { name: "keep nothing", text: "ROLLBACK TO SAVEPOINT mk_unkept" });
  }
  const verdict = verdictOf(reasons, stats);
  // Only a complete run that wrote its results can be reused or built on. An incomplete one that
  // wrote them anyway (onIncomplete "all") asks the next run to match everything.
  const reusableLater = persisted && verdict !== "incomplete";
  for (const s of settleChanges({ persisted, buildable: reusableLater })) await timed(tx, s);
  return {
    stats,
    verdict,
    persisted,
    fingerprint: reusableLater ? BUILDABLE : null,
    validUntil: reusableLater ? await measured("valid until", () => validUntil(tx, o)) : null,
    reusedRunId: null,
    incremental: scoped,
    scopeRecords: scope?.records ?? null,
  };
}

/** What the last complete run left to work on; null when no run has completed yet. */
async function lastCompleteWork(tx: Db): Promise<StoredWork | null> {
  const [row] = await queryText<{ complete: unknown }>(
    tx,
    `SELECT EXISTS (SELECT 1 FROM match_runs WHERE finished_at IS NOT NULL
      AND verdict IS NOT NULL AND verdict <> 'incomplete') AS complete`,
  );
  return isTrue(row?.complete) ? readStoredWork(tx) : null;
}

function verdictOf(reasons: readonly string[], stats: MatchStats): Verdict {
  if (reasons.length > 0) return "incomplete";
  if (stats.openBreaks > 0) return "breaks";
  return stats.pendingItems > 0 ? "reconciled_with_pending" : "reconciled";
}

/**
 * Nothing changed: the stored matches and breaks are this run's too; the last run's validity
 * carries on. No break row is written, so the run costs the same however many breaks are open:
 * that the open breaks were seen by this run is its own match_runs row (the view `breaks_seen`
 * derives each break's last sighting from it).
 */
function reuse(last: ReusableRun): Outcome {
  return {
    stats: statsOf(last.stats),
    verdict: last.verdict as Verdict,
    persisted: true,
    fingerprint: BUILDABLE,
    validUntil: last.validUntil,
    reusedRunId: last.id,
    incremental: false,
    scopeRecords: null,
  };
}

function flatStats(s: MatchStats): Record<string, number> {
  return {
    providerItems: s.providerItems,
    ledgerEntries: s.ledgerEntries,
    openBreaks: s.openBreaks,
    pendingItems: s.pendingItems,
    newBreaks: s.newBreaks,
    resolvedBreaks: s.resolvedBreaks,
    ...Object.fromEntries(Object.entries(s.matched).map(([k, v]) => [`matched.${k}`, v])),
    ...Object.fromEntries(Object.entries(s.breaksByClass).map(([k, v]) => [`breaks.${k}`, v ?? 0])),
  };
}
