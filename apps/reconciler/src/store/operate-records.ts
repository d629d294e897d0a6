// upsertOperateRecords: card operation records into operate_records, their fees and serviceIds.
import { type AppOf, cardOperateRecord } from "@merchantkit/contract";
import type { Db } from "../db/database";
import { wirePlan } from "./canonical-wire";
import { type UpsertCounts, type UpsertOptions, upsertRecords } from "./upsert-batch";
import type { UpsertSpec } from "./upsert-spec";

/** A card operation record as getOperateRecordList returns it or a cardOperateEvent carries it. */
export type OperateRecordInput = AppOf<typeof cardOperateRecord>;

// feeList as an array even when absent or null, so a record's fees can be replaced in SQL.
const FEE_LIST = `CASE WHEN jsonb_typeof(c.raw -> 'feeList') = 'array' THEN c.raw -> 'feeList' ELSE '[]'::jsonb END`;

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
  extraCtes: [
    // The fees of the latest state replace the previous ones: upsert by position, then drop
    // positions past the new list's end (different rows, so both fit in one statement).
    `fee_items AS (
  SELECT c.row_key AS operate_record_id, (f.ord - 1)::integer AS fee_index,
    f.fee ->> 'feeType' AS fee_type, (f.fee ->> 'feeAmount')::numeric AS fee_amount,
    f.fee ->> 'feeCurrency' AS fee_currency
  FROM changed c CROSS JOIN LATERAL jsonb_array_elements(${FEE_LIST}) WITH ORDINALITY AS f(fee, ord)
)`,
    `fees_written AS (
  INSERT INTO operate_record_fees (operate_record_id, fee_index, fee_type, fee_amount, fee_currency)
  SELECT operate_record_id, fee_index, fee_type, fee_amount, fee_currency FROM fee_items
  ON CONFLICT (operate_record_id, fee_index) DO UPDATE SET
    fee_type = excluded.fee_type, fee_amount = excluded.fee_amount, fee_currency = excluded.fee_currency
)`,
    `fees_dropped AS (
  DELETE FROM operate_record_fees o USING changed c
  WHERE o.operate_record_id = c.row_key AND o.fee_index >= jsonb_array_length(${FEE_LIST})
)`,
    // The operation's id is the serviceId of its account postings; a new or changed operation
    // (e.g. P → S, when a RETURN credits the account) makes them due for a (new) fetch.
    `service_ids_revealed AS (
  INSERT INTO service_ids (service_id, source, first_seen_at, revealed_at)
  SELECT row_key, 'operate_record', now(), now() FROM changed
  ON CONFLICT (service_id) DO UPDATE SET revealed_at = excluded.revealed_at
)`,
  ],
};

/**
 * Like upsertCardTransactions for card operations; a changed record's feeList rows are replaced
 * and its operateRecordId is (re)queued in service_ids for an account-transaction fetch, in the
 * same statement.
 */
export function upsertOperateRecords(
  db: Db,
  records: readonly OperateRecordInput[],
  opts: UpsertOptions,
): Promise<UpsertCounts> {
  return upsertRecords(db, operateRecordSpec, records, opts);
}
