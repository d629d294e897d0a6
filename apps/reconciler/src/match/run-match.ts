// runMatch: one match run over everything stored — passes, breaks, verdict — recorded in
// match_runs. Same data and options in, same matches and breaks out.
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { queryRows, queryText } from "../db/query-rows";
import { lapseChangedAcceptances } from "../workflow/lapse-acceptances";
import type { BreakClass, Verdict } from "./break-classes";
import {
  buildScope,
  changedEverything,
  dropChanges,
  incrementalBase,
  restoreChanges,
  takeChanges,
} from "./incremental/incremental-run";
import { type MatchOptions, type ResolvedMatchOptions, resolveMatchOptions } from "./match-options";
import { matchPasses } from "./match-passes";
import { paired } from "./passes/exact";
import { persistStatements } from "./persist-statements";
import { plannerSettings } from "./planner-settings";
import { syncProblems } from "./sync-health";
import {
  dataFingerprint,
  type ReusableRun,
  reusableRun,
  sameParams,
  statsOf,
  validUntil,
} from "./unchanged-run";

export interface MatchStats {
  providerItems: number;
  ledgerEntries: number;
  /** Match groups by pass (exact, chain, operation_gross, tolerant) and cash legs attached. */
  matched: Record<string, number>;
  /** Breaks of this run: open (past grace) and pending (inside grace), and by class. */
  openBreaks: number;
  pendingItems: number;
  breaksByClass: Partial<Record<BreakClass, number>>;
  /** Compared with the stored breaks before this run: new ones and ones that disappeared. */
  newBreaks: number;
  resolvedBreaks: number;
}

export interface MatchRunResult {
  runId: string;
  asOf: Date;
  verdict: Verdict;
  /** Why the run is incomplete; empty otherwise. */
  reasons: string[];
  stats: MatchStats;
  /** False when an incomplete run left matches and breaks as they were. */
  persisted: boolean;
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

/** The options a run records, and compares with the last run's before reusing its results. */
function runParams(o: ResolvedMatchOptions): Record<string, string | number> {
  return {
    ledgerGraceMs: o.ledgerGraceMs,
    providerGraceMs: o.providerGraceMs,
    pendingStatusGraceMs: o.pendingStatusGraceMs,
    staleAuthorizationMs: o.staleAuthorizationMs,
    tolerance: o.tolerance,
    toleranceWindowMs: o.toleranceWindowMs,
    maxSyncLagMs: o.maxSyncLagMs,
  };
}

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
 * no longer found resolved. An incomplete run (sync lag, failed windows, unfetched serviceIds)
 * only records itself unless `onIncomplete: "all"`. When nothing it depends on changed since
 * the last run that wrote its results (unchanged-run.ts), it reuses them unless `full`.
 */
export async function runMatch(db: Db, options: MatchOptions = {}): Promise<MatchRunResult> {
  const o = resolveMatchOptions(options);
  const started = performance.now();
  const reasons = await syncProblems(db, o.asOf, o.maxSyncLagMs);
  const params = runParams(o);
  const [run] = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO match_runs (as_of, params) VALUES (${o.asOf.toISOString()}::timestamptz,
      ${JSON.stringify(params)}::jsonb) RETURNING id`,
  );
  const runId = run?.id as string;
  const timings: { name: string; ms: number }[] = [];
  const timed = async (tx: Db, name: string, text: string) => {
    const t0 = performance.now();
    await queryText(tx, text);
    timings.push({ name, ms: Math.round(performance.now() - t0) });
  };
  try {
    const outcome = await db.transaction(async (tx): Promise<Outcome> => {
      for (const s of plannerSettings) await timed(tx, s.name, s.text);
      const fingerprint = await dataFingerprint(tx);
      const reusable =
        reasons.length === 0 ? await reusableRun(tx, o, params, fingerprint) : undefined;
      const base =
        reasons.length === 0 && !reusable
          ? await incrementalBase(tx, o, (last) => sameParams(last, params))
          : undefined;
      // What changed since the last run: taken when a run may build on it, dropped otherwise.
      const took = reusable !== undefined || base !== undefined;
      for (const s of took ? takeChanges : [dropChanges]) await timed(tx, s.name, s.text);
      if (reusable) return reuse(tx, runId, o, reusable, fingerprint);
      const scopeRecords =
        base && !(await changedEverything(tx))
          ? ((await buildScope(tx, o, base, timed)) ?? null)
          : null;
      const scoped = scopeRecords !== null;
      for (const s of matchPasses(o)) await timed(tx, s.name, s.text);
      // An incremental run's tables hold its scope only: its figures are read once it has
      // written its results over the stored ones.
      let stats = await readStats(tx, scoped);
      const persisted =
        scoped || verdictOf(reasons, stats) !== "incomplete" || o.onIncomplete === "all";
      if (persisted) {
        const [stored] = await queryText<{ fresh: boolean }>(
          tx,
          "SELECT NOT EXISTS (SELECT 1 FROM match_pairs) AS fresh",
        );
        const fresh = stored?.fresh === true || String(stored?.fresh) === "t";
        for (const s of persistStatements(runId, o, { fresh, scoped }))
          await timed(tx, s.name, s.text);
        if (scoped) stats = await storedTotals(tx, stats);
      } else {
        const restore = restoreChanges(took);
        await timed(tx, restore.name, restore.text);
      }
      const verdict = verdictOf(reasons, stats);
      // Only a complete run that wrote its results can be reused.
      const reusableLater = persisted && verdict !== "incomplete";
      return {
        stats,
        verdict,
        persisted,
        fingerprint: reusableLater ? fingerprint : null,
        validUntil: reusableLater ? await validUntil(tx, o) : null,
        reusedRunId: null,
        incremental: scoped,
        scopeRecords,
      };
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
    if (outcome.persisted && !outcome.reusedRunId) await lapseChangedAcceptances(db, runId);
    const { stats, verdict, persisted, reusedRunId, incremental, scopeRecords } = outcome;
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

function verdictOf(reasons: readonly string[], stats: MatchStats): Verdict {
  if (reasons.length > 0) return "incomplete";
  if (stats.openBreaks > 0) return "breaks";
  return stats.pendingItems > 0 ? "reconciled_with_pending" : "reconciled";
}

/**
 * Nothing changed: the stored matches and breaks are this run's too. The open breaks are marked
 * seen by it (their ages in the views move with its as_of); the last run's validity carries on.
 */
async function reuse(
  tx: Db,
  runId: string,
  o: ResolvedMatchOptions,
  last: ReusableRun,
  fingerprint: string,
): Promise<Outcome> {
  await queryRows(
    tx,
    sql`UPDATE breaks SET last_seen_at = ${o.asOf.toISOString()}::timestamptz,
      last_run_id = ${runId}::uuid WHERE status <> 'resolved'`,
  );
  return {
    stats: statsOf(last.stats),
    verdict: last.verdict as Verdict,
    persisted: true,
    fingerprint,
    validUntil: last.validUntil,
    reusedRunId: last.id,
    incremental: false,
    scopeRecords: null,
  };
}

/**
 * The run's figures from its work tables. `scoped`: an incremental run's tables hold its scope
 * only, so a stored break it did not find is resolved only when it is one of the scope's.
 */
async function readStats(tx: Db, scoped: boolean): Promise<MatchStats> {
  const [counts] = await queryText<Record<string, string>>(
    tx,
    `SELECT x.provider_items, x.ledger_entries, x.exact,
      (SELECT count(*) FROM run_breaks WHERE status = 'open') AS open,
      (SELECT count(*) FROM run_breaks WHERE status = 'pending') AS pending,
      (SELECT count(*) FROM run_breaks b WHERE NOT EXISTS (SELECT 1 FROM breaks t
        WHERE t.break_id = b.break_id AND t.status <> 'resolved')) AS new,
      (SELECT count(*) FROM breaks t WHERE t.status <> 'resolved'
        AND NOT EXISTS (SELECT 1 FROM run_breaks b WHERE b.break_id = t.break_id)
        ${scoped ? "AND t.break_id IN (SELECT break_id FROM scope_breaks)" : ""}) AS resolved
     FROM (SELECT count(item_ref) AS provider_items, count(entry_id) AS ledger_entries,
       count(*) FILTER (WHERE ${paired("e")}) AS exact FROM run_records e) x`,
  );
  const passes = await queryText<{ pass: string; n: string }>(
    tx,
    `SELECT pass, count(DISTINCT CASE WHEN pass = 'cash_leg' THEN record_ref ELSE match_id END) AS n
     FROM run_members GROUP BY pass ORDER BY pass`,
  );
  const classes = await queryText<{ class: BreakClass; n: string }>(
    tx,
    `SELECT class, count(*) AS n FROM run_breaks WHERE status = 'open' GROUP BY class ORDER BY class`,
  );
  const c = counts ?? {};
  return {
    providerItems: Number(c.provider_items),
    ledgerEntries: Number(c.ledger_entries),
    matched: {
      exact: Number(c.exact),
      ...Object.fromEntries(passes.map((p) => [p.pass, Number(p.n)])),
    },
    openBreaks: Number(c.open),
    pendingItems: Number(c.pending),
    breaksByClass: Object.fromEntries(classes.map((r) => [r.class, Number(r.n)])),
    newBreaks: Number(c.new),
    resolvedBreaks: Number(c.resolved),
  };
}

/**
 * An incremental run's figures: the totals from the stored results it has just written, the
 * breaks it found new or resolved from its own (`own`).
 */
async function storedTotals(tx: Db, own: MatchStats): Promise<MatchStats> {
  // The run's copies of the scope shadow the source tables' names: count the real ones.
  const [where] = await queryText<{ schema: string }>(tx, "SELECT current_schema() AS schema");
  const schema = `"${(where?.schema ?? "public").replaceAll('"', '""')}"`;
  const [counts] = await queryText<Record<string, string>>(
    tx,
    `SELECT (SELECT count(*) FROM ${schema}.provider_items) AS provider_items,
      (SELECT count(*) FROM ${schema}.ledger_entries) AS ledger_entries,
      (SELECT count(*) FROM match_pairs) AS exact,
      (SELECT count(*) FROM breaks WHERE status = 'open') AS open,
      (SELECT count(*) FROM breaks WHERE status = 'pending') AS pending`,
  );
  const passes = await queryText<{ pass: string; n: string }>(
    tx,
    `SELECT pass, count(*) AS n FROM match_groups GROUP BY pass
     UNION ALL SELECT 'cash_leg', count(DISTINCT record_ref) FROM match_group_members
       WHERE side = 'cash' HAVING count(*) > 0
     ORDER BY pass`,
  );
  const classes = await queryText<{ class: BreakClass; n: string }>(
    tx,
    `SELECT class, count(*) AS n FROM breaks WHERE status = 'open' GROUP BY class ORDER BY class`,
  );
  const c = counts ?? {};
  return {
    providerItems: Number(c.provider_items),
    ledgerEntries: Number(c.ledger_entries),
    matched: {
      exact: Number(c.exact),
      ...Object.fromEntries(passes.map((p) => [p.pass, Number(p.n)])),
    },
    openBreaks: Number(c.open),
    pendingItems: Number(c.pending),
    breaksByClass: Object.fromEntries(classes.map((r) => [r.class, Number(r.n)])),
    newBreaks: own.newBreaks,
    resolvedBreaks: own.resolvedBreaks,
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
