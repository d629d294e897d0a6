// What a stream has not read: the windows still to read again (card transactions, operation
// records) or the serviceIds whose account transactions are not fetched yet, those parked
// because the service refused their sub-merchant included (it answered nothing about them). A
// run after which any of it is left says so and exits non-zero; `status` reports it as a health
// check.
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";
import { refusedEntityPark } from "./service-ids";
import { unreadWindows } from "./sync-windows";

export interface Unread {
  /**
   * Unread windows, or (account_transactions) serviceIds due for a fetch or parked because their
   * sub-merchant was refused.
   */
  count: number;
  /** The oldest: a window's start, or when the oldest such serviceId was revealed. */
  since: string | null;
}

export async function unreadOf(db: Db, stream: string): Promise<Unread> {
  if (stream === "account_transactions") {
    const [due] = await queryRows<{ n: unknown; since: unknown }>(
      db,
      sql`SELECT count(*) AS n, min(s.revealed_at) AS since FROM service_ids s
        WHERE s.fetched_at IS NULL OR s.fetched_at < s.revealed_at
          OR (s.parked_at IS NOT NULL AND ${sql.raw(refusedEntityPark("s"))})`,
    );
    const since = due?.since == null ? null : new Date(due.since as string | Date).toISOString();
    return { count: Number(due?.n ?? 0), since };
  }
  const windows = await unreadWindows(db, stream);
  return { count: windows.windows, since: windows.since?.toISOString() ?? null };
}
