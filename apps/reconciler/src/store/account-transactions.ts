// upsertAccountTransactions: account balance changes into account_transactions.
import { type AppOf, accountTransactionRecord } from "@merchantkit/contract";
import type { Db } from "../db/database";
import { wirePlan } from "./canonical-wire";
import { type UpsertCounts, type UpsertOptions, upsertRecords } from "./upsert-batch";
import type { UpsertSpec } from "./upsert-spec";
import { normaliseWireTime } from "./wire-time";

/** An account transaction as the account client returns it (transactions/service/query). */
export type AccountTransactionInput = AppOf<typeof accountTransactionRecord>;

export const accountTransactionSpec: UpsertSpec<AccountTransactionInput> = {
  noun: "account transaction",
  table: "account_transactions",
  versionsTable: "account_transaction_versions",
  keyColumn: "acnt_txn_id",
  keyField: "acntTxnId",
  plan: wirePlan(accountTransactionRecord.wire),
  fields: [
    { column: "acnt_txn_id", key: "acntTxnId", type: "text" },
    { column: "service_id", key: "serviceId", type: "text" },
    { column: "currency", key: "currency", type: "text" },
    { column: "balance_type", key: "balanceType", type: "text" },
    { column: "amount", key: "amount", type: "numeric" },
    { column: "balance_upd_date", key: "balanceUpdDate", type: "time", derived: true },
    { column: "business_type", key: "businessType", type: "text" },
    { column: "external_order_id", key: "externalOrderId", type: "text" },
    { column: "remark", key: "remark", type: "text" },
  ],
  derive: (record) => ({ balanceUpdDate: normaliseWireTime(record.balanceUpdDate) }),
};

/** Inserts new balance changes, updates changed ones with a new version (no status here). */
export function upsertAccountTransactions(
  db: Db,
  records: readonly AccountTransactionInput[],
  opts: UpsertOptions,
): Promise<UpsertCounts> {
  return upsertRecords(db, accountTransactionSpec, records, opts);
}
