// The follow-up of records still P from before a run's range (sync/windowed-stream.ts): which of
// them a run reads again, and where it left off. A run reads at most RECONCILER_FOLLOW_LIMIT,
// taken in turn from after the record the last run's follow-up ended on and wrapping around to
// the oldest, so with more pending records than that each is read every few runs, not the
// oldest every time and the rest never.
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";

/** Where a stream's pending records are: the table and its columns. */
export interface PendingTable {
  name: string;
  /** The record's key (txnOrderNo, operateRecordId, payoutId). */
  id: string;
  status: string;
  /** The time the stream's windows filter on. */
  time: string;
  /** Issuing records: their card, which is how the lists find one again (digits only). */
  cardId?: string;
}

/** One record to read again. */
export type PendingRow = {
  id: string;
  /** Its card id (issuing records), else null. */
  card_id: string | null;
  /** Its time in whole epoch seconds (the issuing lists' filter unit), as text. */
  second: string;
  /** Its time as Postgres's text, kept for the cursor. */
  at: string;
};

/**
 * The records of `table` still P from before `before` that this run follows: after the
 * stream's cursor first, then from the oldest. A card id stored masked (a webhook's first word on
 * the record) cannot be asked for; it waits until a window stores its digits.
 */
export function pendingRows(
  db: Db,
  stream: string,
  table: PendingTable,
  before: Date,
  limit: number,
): Promise<PendingRow[]> {
  const { name, id, status, time, cardId } = table;
  const col = (c: string) => sql.raw(`p.${c}`);
  return queryRows<PendingRow>(
    db,
    sql`SELECT ${col(id)} AS id, ${cardId ? col(cardId) : sql`NULL`} AS card_id,
        floor(extract(epoch FROM ${col(time)}))::bigint::text AS second, ${col(time)}::text AS at
      FROM ${sql.raw(name)} p
      LEFT JOIN sync_follow_cursors c ON c.stream = ${stream}
      WHERE ${col(status)} = 'P' AND ${col(time)} < ${before.toISOString()}::timestamptz
        ${cardId ? sql`AND ${col(cardId)} ~ '^[0-9]+$'` : sql``}
      ORDER BY (${col(time)}, ${col(id)}) <= (c.after_time, c.after_key) IS TRUE,
        ${col(time)}, ${col(id)}
      LIMIT ${limit}`,
  );
}

/** Records that the stream's follow-up read up to `last` (saved after its records committed). */
export async function saveFollowCursor(db: Db, stream: string, last: PendingRow): Promise<void> {
  await db.execute(
    sql`INSERT INTO sync_follow_cursors (stream, after_time, after_key)
      VALUES (${stream}, ${last.at}::timestamptz, ${last.id})
      ON CONFLICT (stream) DO UPDATE SET after_time = excluded.after_time,
        after_key = excluded.after_key, updated_at = now()`,
  );
}

/** How many records of `table` are still P, and the oldest one's time (ISO), for `status`. */
export async function pendingCount(
  db: Db,
  table: PendingTable,
): Promise<{ count: number; oldest: string | null }> {
  const time = sql.raw(table.time);
  const [row] = await queryRows<{ n: unknown; oldest: unknown }>(
    db,
    sql`SELECT count(*) AS n, extract(epoch FROM min(${time})) * 1000 AS oldest
      FROM ${sql.raw(table.name)} WHERE ${sql.raw(table.status)} = 'P'`,
  );
  return {
    count: Number(row?.n ?? 0),
    oldest: row?.oldest == null ? null : new Date(Number(row.oldest)).toISOString(),
  };
}
