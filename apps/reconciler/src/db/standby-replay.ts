// What a reader on a hot standby needs to know of its replay: how far behind the primary it is,
// and whether it has replayed a given write yet (a person's own action, read back on the next
// page).
import { sql } from "drizzle-orm";
import type { Db } from "./database";
import { isTrue, queryRows } from "./query-rows";
import { utcText } from "./utc-text";

export interface ReplayState {
  /** The primary's commit time of the last transaction replayed (ISO, UTC), if any. */
  replayedAt: string | null;
  /**
   * Seconds the standby is behind: 0 when it has replayed all it received, else the time since
   * the last transaction it replayed committed on the primary.
   */
  behindSeconds: number;
}

/** The replay state, or undefined when `db` is not a standby (a primary, PGlite). */
export async function replayState(db: Db): Promise<ReplayState | undefined> {
  const [row] = await queryRows<{
    standby: boolean | string;
    replayed_at: string | null;
    behind: string | null;
  }>(
    db,
    sql`SELECT pg_is_in_recovery() AS standby,
        ${utcText("pg_last_xact_replay_timestamp()")} AS replayed_at,
        CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
          ELSE greatest(0, floor(extract(epoch FROM now() - pg_last_xact_replay_timestamp())))
        END::text AS behind`,
  );
  if (!isTrue(row?.standby)) return undefined;
  return { replayedAt: row?.replayed_at ?? null, behindSeconds: Number(row?.behind ?? 0) };
}

/** Where the primary's WAL is now: a write committed before this is replayed past it. */
export async function primaryPosition(db: Db): Promise<string> {
  const [row] = await queryRows<{ lsn: string }>(db, sql`SELECT pg_current_wal_lsn()::text AS lsn`);
  return row?.lsn as string;
}

/** Whether the standby `db` has replayed the primary's WAL up to `lsn`. */
export async function replayedPast(db: Db, lsn: string): Promise<boolean> {
  const [row] = await queryRows<{ done: boolean | string }>(
    db,
    sql`SELECT coalesce(pg_last_wal_replay_lsn() >= ${lsn}::pg_lsn, false) AS done`,
  );
  return isTrue(row?.done);
}
