// The log of which days of the finance figures each write changed (migration 0032): triggers on
// every table behind finance_daily_statement and finance_fees_by_type add (xid, day) rows in
// the writer's transaction, so a reader that knows the snapshot its figures were computed under
// finds the days written since, on the primary or on a hot standby that replays the log.
import { sql } from "drizzle-orm";
import type { Db } from "./database";
import { isTrue, queryRows } from "./query-rows";

/** How long the log keeps a write (finance_prune_changes, called by each match run). */
export const FINANCE_CHANGES_KEPT = "1 day";

/**
 * Figures older than this are computed whole again: the log may no longer hold every write
 * since (a margin of half the kept time for a standby's replay delay and the clocks).
 */
export const FIGURES_MAX_AGE_MS = 12 * 3600 * 1000;

/** The day that stands for every day in the log. */
const EVERY_DAY = "-infinity";

/**
 * The reader's snapshot (pg_snapshot as text): inside a repeatable-read transaction, its own.
 * `exact` when it was taken on a primary, whose snapshot lists the transactions in progress; a
 * standby's lists none of them (only a lower bound, xmin, below which all had ended).
 */
export interface ReadSnapshot {
  snapshot: string;
  exact: boolean;
}

export async function currentSnapshot(db: Db): Promise<ReadSnapshot> {
  const [row] = await queryRows<{ snapshot: string; standby: boolean | string }>(
    db,
    sql`SELECT pg_current_snapshot()::text AS snapshot, pg_is_in_recovery() AS standby`,
  );
  return { snapshot: row?.snapshot as string, exact: !isTrue(row?.standby) };
}

/**
 * The days (YYYY-MM-DD, or "every") whose figures may have changed since `since` was taken:
 * those of every write the reader now sees that `since` did not. A transaction below the
 * snapshot's xmin had ended when it was taken, so figures computed under it hold its writes;
 * of those at or past xmin, a primary's snapshot tells which had committed, a standby's does
 * not (their days are read again: a few days too many at most, while a transaction that was in
 * progress then stays in progress).
 */
export async function daysChangedSince(db: Db, since: ReadSnapshot): Promise<string[] | "every"> {
  const rows = await queryRows<{ day: string }>(
    db,
    sql`SELECT DISTINCT day::text AS day FROM finance_changes
      WHERE xid >= pg_snapshot_xmin(${since.snapshot}::pg_snapshot)
        AND NOT (${since.exact}::boolean AND pg_visible_in_snapshot(xid, ${since.snapshot}::pg_snapshot))`,
  );
  const days = rows.map((r) => r.day);
  return days.includes(EVERY_DAY) ? "every" : days.sort();
}
