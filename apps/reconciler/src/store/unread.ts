// What a stream has not read: the windows still to read again (card transactions, operation
// records) or the serviceIds whose account transactions are not fetched yet. A run after which
// any of it is left says so and exits non-zero; `status` reports it as a health check.
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";
import { unreadWindows } from "./sync-windows";

export interface Unread {
  /** Unread windows, or (account_transactions) serviceIds due for a fetch. */
  count: number;
  /** The oldest: a window's start, or when the oldest due serviceId was revealed. */
  since: string | null;
}

export async function unreadOf(db: Db, stream: string): Promise<Unread> {
  if (stream === "account_transactions") {
    const [due] = await queryRows<{ n: unknown; since: unknown }>(
      db,
      sql`SELECT count(*) AS n, min(revealed_at) AS since FROM service_ids
        WHERE fetched_at IS NULL OR fetched_at < revealed_at`,
    );
    const since = due?.since == null ? null : new Date(due.since as string | Date).toISOString();
    return { count: Number(due?.n ?? 0), since };
  }
  const windows = await unreadWindows(db, stream);
  return { count: windows.windows, since: windows.since?.toISOString() ?? null };
}
