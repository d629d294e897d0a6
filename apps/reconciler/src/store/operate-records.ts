// upsertOperateRecords: card operation records into operate_records, their fees and serviceIds.
import { type AppOf, cardOperateRecord } from "@merchantkit/contract";
import type { Db } from "../db/database";
import { wirePlan } from "./canonical-wire";
import { type UpsertCounts, type UpsertOptions, upsertRecords } from "./upsert-batch";
import type { UpsertSpec } from "./upsert-spec";

/** A card operation record as getOperateRecordList returns it or a cardOperateEvent carries it. */
export type OperateRecordInput = AppOf<typeof cardOperateRecord>;

// The fees of the latest state replace the previous ones: drop positions past the new list's
// end, upsert the others by position (different rows, so both fit in one statement). Read from
// the stored row after the upsert, in a statement of their own: the upsert's snapshot predates
// its wait for another writer's row lock, so a fee row that writer added would stay behind.
// (feeList is read as an array even when absent or null.)
const REPLACE_FEES = `,
stored AS (
  SELECT r.operate_record_id, CASE WHEN jsonb_typeof(r.raw -> 'feeList') = 'array'
    THEN r.raw -> 'feeList' ELSE '[]'::jsonb END AS fee_list
  FROM operate_records r JOIN keys k ON r.operate_record_id = k.key
),
fees_dropped AS (
  DELETE FROM operate_record_fees o USING stored s
  WHERE o.operate_record_id = s.operate_record_id AND o.fee_index >= jsonb_array_length(s.fee_list)
)
INSERT INTO operate_record_fees (operate_record_id, fee_index, fee_type, fee_amount, fee_currency)
SELECT s.operate_record_id, (f.ord - 1)::integer, f.fee ->> 'feeType',
  (f.fee ->> 'feeAmount')::numeric, f.fee ->> 'feeCurrency'
FROM stored s CROSS JOIN LATERAL jsonb_array_elements(s.fee_list) WITH ORDINALITY AS f(fee, ord)
ON CONFLICT (operate_record_id, fee_index) DO UPDATE SET
  fee_type = excluded.fee_type, fee_amount = excluded.fee_amount, fee_currency = excluded.fee_currency`;

export const operateRecordSpec: UpsertSpec<OperateRecordInput> = {
  noun: "card operation record",
  table: "operate_records",
  versionsTable: "operate_record_versions",
  keyColumn: "operate_record_id",
  keyField: "operateRecordId",
  status: { column: "status", field: "status" },
  plan: wirePlan(cardOperateRecord.wire),
  fields: [
    { column: "operate_record_id", key: "operateRecordId", type: "text" },
    { column: "card_id", key: "cardId", type: "text" },
    { column: "client_request_id", key: "clientRequestId", type: "text" },
    { column: "type", key: "type", type: "text" },
    { column: "status", key: "status", type: "text" },
    { column: "amount", key: "amount", type: "numeric" },
    { column: "currency", key: "currency", type: "text" },
    { column: "operate_time", key: "operateTime", type: "epoch_ms" },
    { column: "remark", key: "remark", type: "text" },
  ],
  onUpdate: {
    // Operate events carry no operateTime: keep the one a query stored.
    operate_time: "coalesce(excluded.operate_time, t.operate_time)",
  },
  // A status move (e.g. P → S, when a RETURN credits the account) brings new postings.
  revealsServiceIds: "operate_record",
  afterUpsert: REPLACE_FEES,
};

/**
 * Like upsertCardTransactions for card operations; a changed record's operateRecordId is
 * (re)queued in service_ids for an account-transaction fetch in the same statement, and its
 * feeList rows are replaced right after it, in the same transaction.
 */
export function upsertOperateRecords(
  db: Db,
  records: readonly OperateRecordInput[],
  opts: UpsertOptions,
): Promise<UpsertCounts> {
  return upsertRecords(db, operateRecordSpec, records, opts);
}
