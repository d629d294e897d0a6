// The serviceIds other streams reveal, and which of them still need an account-transaction fetch.
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";

/** Who revealed a serviceId: a card operation, a payout, or the merchant's ledger. */
export type ServiceIdSource = "operate_record" | "payout" | "ledger";

const SOURCES: readonly ServiceIdSource[] = ["operate_record", "payout", "ledger"];

function checkIds(ids: readonly string[]): void {
  for (const id of ids)
    if (typeof id !== "string" || id === "")
      throw new TypeError("serviceIds must be non-empty strings (64-bit ids as digits)");
}

/**
 * Stores serviceIds to fetch account transactions for; returns how many were new. A known id is
 * left as it is, unless `refetch` asks for another fetch (its record changed). Operate records
 * need no call: upsertOperateRecords queues their ids itself.
 */
export async function rememberServiceIds(
  db: Db,
  ids: readonly string[],
  source: ServiceIdSource,
  opts: { refetch?: boolean } = {},
): Promise<number> {
  if (!SOURCES.includes(source)) throw new TypeError(`unknown serviceId source ${source}`);
  checkIds(ids);
  if (ids.length === 0) return 0;
  const onConflict = opts.refetch
    ? sql`DO UPDATE SET revealed_at = excluded.revealed_at`
    : sql`DO NOTHING`;
  const [row] = await queryRows<{ inserted: unknown }>(
    db,
    sql`WITH added AS (
      INSERT INTO service_ids (service_id, source, first_seen_at, revealed_at)
      SELECT DISTINCT id, ${source}::text, now(), now()
      FROM jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb) AS id
      ON CONFLICT (service_id) ${onConflict}
      RETURNING (xmax = 0) AS new_row
    )
    SELECT count(*) FILTER (WHERE new_row) AS inserted FROM added`,
  );
  return Number(row?.inserted ?? 0);
}

/**
 * Up to `limit` serviceIds due for a fetch (never fetched, or revealed again since), oldest
 * first, and `asOf`: the database time before the read, to pass to markServiceIdsFetched so
 * that an id revealed again during the fetch stays due.
 */
export async function serviceIdsToFetch(
  db: Db,
  limit = 100,
): Promise<{ serviceIds: string[]; asOf: Date }> {
  const [clock] = await queryRows<{ ms: unknown }>(
    db,
    sql`SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS ms`,
  );
  const rows = await queryRows<{ service_id: string }>(
    db,
    sql`SELECT service_id FROM service_ids
      WHERE fetched_at IS NULL OR fetched_at < revealed_at
      ORDER BY revealed_at, service_id
      LIMIT ${limit}`,
  );
  return { serviceIds: rows.map((r) => r.service_id), asOf: new Date(Number(clock?.ms)) };
}

/** Marks serviceIds fetched as of `asOf` (from serviceIdsToFetch); a parked one is unparked. */
export async function markServiceIdsFetched(
  db: Db,
  ids: readonly string[],
  asOf: Date,
): Promise<void> {
  checkIds(ids);
  if (ids.length === 0) return;
  await db.execute(
    sql`UPDATE service_ids SET fetched_at = ${asOf.toISOString()}::timestamptz,
        parked_at = NULL, parked_reason = NULL
      WHERE service_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))
        AND (fetched_at IS NULL OR fetched_at < ${asOf.toISOString()}::timestamptz)`,
  );
}

/**
 * Parks serviceIds the service refused on their own: they count as fetched as of `asOf`, so no
 * run asks for them again until the ledger entry naming them changes (retryParkedServiceIds).
 */
export async function parkServiceIds(
  db: Db,
  parked: readonly { serviceId: string; reason: string }[],
  asOf: Date,
): Promise<void> {
  if (parked.length === 0) return;
  await db.execute(
    sql`UPDATE service_ids s SET fetched_at = ${asOf.toISOString()}::timestamptz,
        parked_at = now(), parked_reason = p.reason
      FROM jsonb_to_recordset(${JSON.stringify(parked)}::jsonb) AS p("serviceId" text, reason text)
      WHERE s.service_id = p."serviceId"
        AND (s.fetched_at IS NULL OR s.fetched_at < ${asOf.toISOString()}::timestamptz)`,
  );
}
