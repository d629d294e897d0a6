// The serviceIds other streams reveal, which of them still need an account-transaction fetch,
// and when each fetched one is read again (the re-read schedule: docs/reconciler.md).
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";

/** Who revealed a serviceId: a card operation, a payout, or the merchant's ledger. */
type ServiceIdSource = "operate_record" | "payout" | "ledger";

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
  opts: { refetch?: boolean; entity?: string } = {},
): Promise<number> {
  if (!SOURCES.includes(source)) throw new TypeError(`unknown serviceId source ${source}`);
  checkIds(ids);
  if (ids.length === 0) return 0;
  const entity = opts.entity ?? "";
  // A serviceId the ledger revealed for one entity and now names for another (a row's entity
  // corrected) is read again on behalf of the new one.
  const onConflict = opts.refetch
    ? sql`DO UPDATE SET revealed_at = excluded.revealed_at`
    : sql`DO UPDATE SET entity = excluded.entity, revealed_at = excluded.revealed_at
        WHERE service_ids.source = 'ledger' AND service_ids.entity <> excluded.entity`;
  const [row] = await queryRows<{ inserted: unknown }>(
    db,
    sql`WITH added AS (
      INSERT INTO service_ids (service_id, source, first_seen_at, revealed_at, entity)
      SELECT DISTINCT id, ${source}::text, now(), now(), ${entity}::text
      FROM jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb) AS id
      ON CONFLICT (service_id) ${onConflict}
      RETURNING (xmax = 0) AS new_row
    )
    SELECT count(*) FILTER (WHERE new_row) AS inserted FROM added`,
  );
  return Number(row?.inserted ?? 0);
}

/** What a fetch is for: a first (or requested) read, or a scheduled re-read. */
export type FetchReason = "due" | "reread";

const WHICH = {
  // Never fetched, or revealed again since (service_ids_due_idx).
  due: sql`fetched_at IS NULL OR fetched_at < revealed_at ORDER BY revealed_at, service_id`,
  // Past their re-read time (service_ids_reread_idx); the longest waiting first.
  reread: sql`reread_at <= now() ORDER BY reread_at, service_id`,
} as const;

/**
 * Up to `limit` serviceIds to fetch for `reason`, oldest first, each with its entity (whose
 * behalf it is read on, '' for the merchant itself), and `asOf`: the database time
 * before the read, to pass to markServiceIdsFetched so that an id revealed again during the
 * fetch stays due.
 */
export async function serviceIdsToFetch(
  db: Db,
  limit = 100,
  reason: FetchReason = "due",
): Promise<{ serviceIds: string[]; entities: string[]; asOf: Date }> {
  const [clock] = await queryRows<{ ms: unknown }>(
    db,
    sql`SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS ms`,
  );
  const rows = await queryRows<{ service_id: string; entity: string }>(
    db,
    sql`SELECT service_id, entity FROM service_ids WHERE ${WHICH[reason]} LIMIT ${limit}`,
  );
  return {
    serviceIds: rows.map((r) => r.service_id),
    entities: rows.map((r) => r.entity),
    asOf: new Date(Number(clock?.ms)),
  };
}

/**
 * Marks serviceIds fetched as of `asOf` (from serviceIdsToFetch); a parked one is unparked. Call
 * it in the transaction that stored the fetch's postings: a posting that transaction wrote
 * (updated_at = now()) is a change, which restarts the id's re-read schedule. Its next re-read
 * is the first step of `scheduleMs` after its last change (revealed or postings changed) that
 * lies past `asOf`; none (settled) past the last step.
 */
export async function markServiceIdsFetched(
  db: Db,
  ids: readonly string[],
  asOf: Date,
  scheduleMs: readonly number[],
): Promise<void> {
  checkIds(ids);
  if (ids.length === 0) return;
  const at = asOf.toISOString();
  await db.execute(
    sql`UPDATE service_ids s SET fetched_at = ${at}::timestamptz,
        parked_at = NULL, parked_reason = NULL,
        postings_changed_at = x.changed_at,
        reread_at = (SELECT min(n.at) FROM (
            SELECT greatest(s.revealed_at, x.changed_at) + step::bigint * interval '1 millisecond' AS at
            FROM jsonb_array_elements_text(${JSON.stringify(scheduleMs)}::jsonb) AS step
          ) AS n WHERE n.at > ${at}::timestamptz)
      FROM (
        SELECT i.id, CASE WHEN EXISTS (SELECT 1 FROM account_transactions a
            WHERE a.service_id = i.id AND a.updated_at = now())
          THEN now() ELSE t.postings_changed_at END AS changed_at
        FROM jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb) AS i(id)
        JOIN service_ids t ON t.service_id = i.id
      ) AS x
      WHERE s.service_id = x.id
        AND (s.fetched_at IS NULL OR s.fetched_at < ${at}::timestamptz)`,
  );
}

/**
 * Parks serviceIds the service refused on their own: they count as fetched as of `asOf`, so no
 * run asks for them again until a ledger entry naming them is new or changed (importLedgerEntries).
 */
export async function parkServiceIds(
  db: Db,
  parked: readonly { serviceId: string; reason: string }[],
  asOf: Date,
): Promise<void> {
  if (parked.length === 0) return;
  await db.execute(
    sql`UPDATE service_ids s SET fetched_at = ${asOf.toISOString()}::timestamptz,
        parked_at = now(), parked_reason = p.reason, reread_at = NULL
      FROM jsonb_to_recordset(${JSON.stringify(parked)}::jsonb) AS p("serviceId" text, reason text)
      WHERE s.service_id = p."serviceId"
        AND (s.fetched_at IS NULL OR s.fetched_at < ${asOf.toISOString()}::timestamptz)`,
  );
}

/**
 * Stamps the account transactions of `serviceIds` with the entity they were read for: the
 * upsert writes what the service sent, which does not name the merchant whose account it is.
 * In the transaction that stored them, so no match run sees them under another entity.
 */
export async function stampAccountEntity(
  db: Db,
  serviceIds: readonly string[],
  entity: string,
): Promise<void> {
  checkIds(serviceIds);
  if (serviceIds.length === 0) return;
  await db.execute(
    sql`UPDATE account_transactions SET entity = ${entity}
      WHERE service_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(serviceIds)}::jsonb))
        AND entity <> ${entity}`,
  );
}

/**
 * How the reason of a serviceId parked for its sub-merchant begins (the service would not let the
 * merchant act for it): such ids are unread data, not ids the service answered for, and
 * refusedEntities finds them by it.
 */
export const REFUSED_ENTITY_REASON = "the service refused to let the merchant act for sub-merchant";

/** SQL: the service_ids row `alias` is parked because its sub-merchant was refused. */
export const refusedEntityPark = (alias: string) =>
  `left(${alias}.parked_reason, ${REFUSED_ENTITY_REASON.length}) = '${REFUSED_ENTITY_REASON}'`;

/** The sub-merchants whose serviceIds are parked because the service refused them, with how many. */
export async function refusedEntities(db: Db): Promise<{ entity: string; serviceIds: number }[]> {
  const rows = await queryRows<{ entity: string; n: unknown }>(
    db,
    sql`SELECT s.entity, count(*) AS n FROM service_ids s
      WHERE s.parked_at IS NOT NULL AND ${sql.raw(refusedEntityPark("s"))}
      GROUP BY s.entity ORDER BY s.entity`,
  );
  return rows.map((r) => ({ entity: r.entity, serviceIds: Number(r.n) }));
}
