// The log of which days of the finance figures each write changed (migration 0029): triggers on
// every table behind finance_daily_statement and finance_fees_by_type add (xid, day) rows in
// the writer's transaction, so a reader that knows the snapshot its figures were computed under
// finds the days written since, on the primary or on a hot standby that replays the log.
import { sql } from "drizzle-orm";
import type { Db } from "./database";
import { queryRows } from "./query-rows";

/** How long the log keeps a write (finance_prune_changes, called by each match run). */
export const FINANCE_CHANGES_KEPT = "1 day";

/**
 * Figures older than this are computed whole again: the log may no longer hold every write
 * since (a margin of half the kept time for a standby's replay delay and the clocks).
 */
export const FIGURES_MAX_AGE_MS = 12 * 3600 * 1000;

/** The day that stands for every day in the log. */
export const EVERY_DAY = "-infinity";

/** The reader's snapshot (pg_snapshot as text): inside a repeatable-read transaction, its own. */
export async function currentSnapshot(db: Db): Promise<string> {
  const [row] = await queryRows<{ snapshot: string }>(
    db,
    sql`SELECT pg_current_snapshot()::text AS snapshot`,
  );
  return row?.snapshot as string;
}

/**
 * The days (YYYY-MM-DD, or "every") whose figures may have changed since `snapshot` was taken:
 * those of every write the reader now sees whose transaction was at or past the snapshot's
 * xmin. A transaction below it had ended when the snapshot was taken, so the figures computed
 * under it hold its writes; one at or past it may have been in progress then (a standby's
 * snapshot does not list which were), so its days are read again: a few days too many at most.
 */
export async function daysChangedSince(db: Db, snapshot: string): Promise<string[] | "every"> {
  const rows = await queryRows<{ day: string }>(
    db,
    sql`SELECT DISTINCT day::text AS day FROM finance_changes
      WHERE xid >= pg_snapshot_xmin(${snapshot}::pg_snapshot)`,
  );
  const days = rows.map((r) => r.day);
  return days.includes(EVERY_DAY) ? "every" : days.sort();
}
