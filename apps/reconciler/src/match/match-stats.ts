// A match run's figures: from its own work tables (a full run), or from the stored results it
// has just written (an incremental run, whose work tables hold its scope only).
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import type { BreakClass } from "./break-classes";
import { paired } from "./passes/exact";
import { STORED_PASSES, STORED_TOTALS } from "./stored-totals";

export interface MatchStats {
  providerItems: number;
  ledgerEntries: number;
  /** Match groups by pass (exact, chain, operation_gross, tolerant) and cash legs attached. */
  matched: Record<string, number>;
  /**
   * Breaks of this run still to work on: open (past grace) and pending (inside grace), and open
   * ones by class. An accepted break is no longer work: counted in none of them (the verdict
   * and finance_open_breaks agree), until its acceptance lapses or is reopened.
   */
  openBreaks: number;
  pendingItems: number;
  breaksByClass: Partial<Record<BreakClass, number>>;
  /** Compared with the stored breaks before this run: new ones and ones that disappeared. */
  newBreaks: number;
  resolvedBreaks: number;
}

/** A break `b` someone accepted (break_workflow): finance decided it, it is not work. */
const ACCEPTED = `EXISTS (SELECT 1 FROM break_workflow w
  WHERE w.break_id = b.break_id AND w.accepted_at IS NOT NULL)`;

/** The open and pending breaks of `table` (alias b) not accepted, and the open ones by class. */
const work = (table: string) => ({
  open: `(SELECT count(*) FROM ${table} b WHERE b.status = 'open' AND NOT ${ACCEPTED})`,
  pending: `(SELECT count(*) FROM ${table} b WHERE b.status = 'pending' AND NOT ${ACCEPTED})`,
  classes: `SELECT b.class, count(*) AS n FROM ${table} b WHERE b.status = 'open' AND NOT ${ACCEPTED}
    GROUP BY b.class ORDER BY b.class`,
});

/** The three queries a run's figures come from. */
interface Sources {
  /** One row: provider_items, ledger_entries, exact, open, pending and, where known, new, resolved. */
  counts: string;
  /** (pass, n): match groups by pass, cash legs by posting. */
  passes: string;
  /** (class, n): open breaks by class. */
  classes: string;
}

async function figures(tx: Db, from: Sources): Promise<MatchStats> {
  const [counts] = await queryText<Record<string, string>>(tx, from.counts);
  const passes = await queryText<{ pass: string; n: string }>(tx, from.passes);
  const classes = await queryText<{ class: BreakClass; n: string }>(tx, from.classes);
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
    newBreaks: Number(c.new ?? 0),
    resolvedBreaks: Number(c.resolved ?? 0),
  };
}

/**
 * The run's figures from its work tables. `scoped`: an incremental run's tables hold its scope
 * only, so a stored break it did not find is resolved only when it is one of the scope's.
 */
export function readRunStats(tx: Db, scoped: boolean): Promise<MatchStats> {
  return figures(tx, {
    counts: `SELECT x.provider_items, x.ledger_entries, x.exact,
      ${work("run_breaks").open} AS open, ${work("run_breaks").pending} AS pending,
      (SELECT count(*) FROM run_breaks b WHERE NOT EXISTS (SELECT 1 FROM breaks t
        WHERE t.break_id = b.break_id AND t.status <> 'resolved')) AS new,
      (SELECT count(*) FROM breaks t WHERE t.status <> 'resolved'
        AND NOT EXISTS (SELECT 1 FROM run_breaks b WHERE b.break_id = t.break_id)
        ${scoped ? "AND t.break_id IN (SELECT break_id FROM scope_breaks)" : ""}) AS resolved
     FROM (SELECT count(item_ref) AS provider_items, count(entry_id) AS ledger_entries,
       count(*) FILTER (WHERE ${paired("e")}) AS exact FROM run_records e) x`,
    passes: `SELECT pass, count(DISTINCT CASE WHEN pass = 'cash_leg' THEN record_ref ELSE match_id END) AS n
     FROM run_members GROUP BY pass ORDER BY pass`,
    classes: work("run_breaks").classes,
  });
}

/**
 * An incremental run's figures: the totals of the stored results it has just written
 * (stored-totals.ts), the breaks it found new or resolved from its own (`own`). `withWork`
 * false leaves the open and pending breaks out (read as 0): a run that keeps its results reads
 * them once its acceptances are settled (readStoredWork), and counting every stored break
 * twice would cost a run more the more breaks stay open.
 */
export async function readStoredStats(
  tx: Db,
  own: MatchStats,
  withWork = true,
): Promise<MatchStats> {
  const none = { open: "0", pending: "0", classes: "SELECT NULL AS class, 0 AS n WHERE false" };
  const q = withWork ? work("breaks") : none;
  const stored = await figures(tx, {
    counts: `SELECT x.provider_items, x.ledger_entries, x.exact,
      ${q.open} AS open, ${q.pending} AS pending
      FROM (${STORED_TOTALS}) x`,
    passes: STORED_PASSES,
    classes: q.classes,
  });
  return { ...stored, newBreaks: own.newBreaks, resolvedBreaks: own.resolvedBreaks };
}

/**
 * The work among the stored breaks once a run has written (or reused) them and lapsed the
 * acceptances that no longer fit: open and pending breaks not accepted, open ones by class.
 * An accept or reopen since the last run changes these without changing anything a run
 * matches on, so a reused run reads them again too.
 */
export async function readStoredWork(
  tx: Db,
): Promise<Pick<MatchStats, "openBreaks" | "pendingItems" | "breaksByClass">> {
  const q = work("breaks");
  const [counts] = await queryText<{ open: string; pending: string }>(
    tx,
    `SELECT ${q.open} AS open, ${q.pending} AS pending`,
  );
  const classes = await queryText<{ class: BreakClass; n: string }>(tx, q.classes);
  return {
    openBreaks: Number(counts?.open ?? 0),
    pendingItems: Number(counts?.pending ?? 0),
    breaksByClass: Object.fromEntries(classes.map((r) => [r.class, Number(r.n)])),
  };
}
