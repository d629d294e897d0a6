// upsertPayouts: payouts (txn/queryList records, payout result notifications) into payouts.
import { type AppOf, transferRecord } from "@merchantkit/contract";
import type { Db } from "../db/database";
import { wirePlan } from "./canonical-wire";
import { type UpsertCounts, type UpsertOptions, upsertRecords } from "./upsert-batch";
import type { UpsertSpec } from "./upsert-spec";
import { normaliseWireTime } from "./wire-time";

/** A payout as txn/queryList returns it. */
export type PayoutInput = AppOf<typeof transferRecord>;

export const payoutSpec: UpsertSpec<PayoutInput> = {
  noun: "payout",
  table: "payouts",
  versionsTable: "payout_versions",
  keyColumn: "payout_id",
  keyField: "payoutId",
  status: { column: "payout_status", field: "payoutStatus" },
  plan: wirePlan(transferRecord.wire),
  fields: [
    { column: "payout_id", key: "payoutId", type: "text" },
    { column: "request_id", key: "requestId", type: "text" },
    { column: "payout_status", key: "payoutStatus", type: "text" },
    { column: "payout_method", key: "payoutMethod", type: "text" },
    { column: "beneficiary_id", key: "beneficiaryId", type: "text" },
    { column: "source_amount", key: "sourceAmount", type: "numeric" },
    { column: "source_currency", key: "sourceCurrency", type: "text" },
    { column: "target_amount", key: "targetAmount", type: "numeric" },
    { column: "target_currency", key: "targetCurrency", type: "text" },
    { column: "fee", key: "fee", type: "numeric" },
    { column: "fee_currency", key: "feeCurrency", type: "text" },
    { column: "create_time", key: "createTime", type: "time", derived: true },
    { column: "finish_time", key: "finishTime", type: "time", derived: true },
    { column: "error_code", key: "errorCode", type: "text" },
    { column: "error_msg", key: "errorMsg", type: "text" },
  ],
  // "YYYY-MM-DD HH:mm:ss" carries no zone: UTC, as the stream's window filters are written.
  derive: (record) => ({
    createTime: normaliseWireTime(record.createTime),
    finishTime: normaliseWireTime(record.finishTime),
  }),
  onUpdate: {
    // A result notification carries neither: keep what a query stored.
    create_time: "coalesce(excluded.create_time, t.create_time)",
    payout_method: "coalesce(excluded.payout_method, t.payout_method)",
  },
  // A status move (F credits PAYOUT_REFUND under the payoutId) brings new postings.
  revealsServiceIds: "payout",
};

/** Like upsertOperateRecords for payouts: a changed payout's serviceId is (re)queued with it. */
export function upsertPayouts(
  db: Db,
  records: readonly PayoutInput[],
  opts: UpsertOptions,
): Promise<UpsertCounts> {
  return upsertRecords(db, payoutSpec, records, opts);
}
