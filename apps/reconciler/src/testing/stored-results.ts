// Test support: what a match run leaves for finance to see (its stored rows and its figures), in
// a form two runs can be compared by: an incremental run's against a full run's at the same as-of.

import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import type { MatchRunResult } from "../match/run-match";

/** The stored results a finance query can see, in a stable order. */
export async function storedResults(db: Db) {
  return {
    pairs: await queryText(
      db,
      "SELECT record_kind, record_ref, entry_id, amount, currency FROM match_pairs ORDER BY 1, 2",
    ),
    groups: await queryText(
      db,
      `SELECT match_id, pass, status, currency, provider_amount, ledger_amount FROM match_groups
       ORDER BY match_id`,
    ),
    members: await queryText(
      db,
      `SELECT match_id, side, record_kind, record_ref, amount, currency FROM match_group_members
       ORDER BY side, record_kind, record_ref`,
    ),
    breaks: await queryText(
      db,
      `SELECT break_id, break_key, class, priority, status, record_kind, provider_ref, entry_id,
         currency, amount, provider_amount, ledger_amount, detail, occurred_at::text AS at, entity
       FROM breaks WHERE status <> 'resolved' ORDER BY break_id`,
    ),
    records: await queryText(
      db,
      "SELECT * FROM break_records ORDER BY side, record_kind, record_ref",
    ),
    // The totals an incremental run keeps as it writes (stored-totals.ts); a pass whose last
    // group went keeps a row of 0.
    totals: await queryText(
      db,
      `SELECT exact_pairs, provider_leftovers, ledger_leftovers FROM match_totals`,
    ),
    passTotals: await queryText(
      db,
      "SELECT pass, groups FROM match_pass_totals WHERE groups <> 0 ORDER BY pass",
    ),
    statement: await queryText(
      db,
      `SELECT day::text, currency, side, record_kind, record_ref, provider_amount, ledger_amount,
         explanation, break_id, match_id FROM finance_statement_lines
       ORDER BY side, record_kind, record_ref`,
    ),
  };
}

export type StoredResults = Awaited<ReturnType<typeof storedResults>>;

/** A run's figures, less the counts of breaks it opened and resolved (a rerun opens none). */
export const runFigures = (r: MatchRunResult) => ({
  verdict: r.verdict,
  ...r.stats,
  newBreaks: undefined,
  resolvedBreaks: undefined,
});

/** The rows of one table that only the incremental run's results or only the full run's hold. */
export interface TableDifference {
  onlyIncremental: unknown[];
  onlyFull: unknown[];
}

/**
 * The tables whose rows differ between an incremental run's results and a full run's, with the
 * rows only one side holds: `{}` when they hold the same rows. Short enough to read where a
 * whole-table comparison would not be.
 */
export function storedDifference(
  incremental: StoredResults,
  full: StoredResults,
): Partial<Record<keyof StoredResults, TableDifference>> {
  const out: Partial<Record<keyof StoredResults, TableDifference>> = {};
  for (const table of Object.keys(incremental) as (keyof StoredResults)[]) {
    const a = incremental[table].map((row) => JSON.stringify(row));
    const b = full[table].map((row) => JSON.stringify(row));
    const inA = new Set(a);
    const inB = new Set(b);
    const onlyIncremental = a.filter((row) => !inB.has(row)).map((row) => JSON.parse(row));
    const onlyFull = b.filter((row) => !inA.has(row)).map((row) => JSON.parse(row));
    // Equal sets of distinct rows can still differ in how often a row occurs.
    if (onlyIncremental.length > 0 || onlyFull.length > 0 || a.length !== b.length)
      out[table] = { onlyIncremental, onlyFull };
  }
  return out;
}
