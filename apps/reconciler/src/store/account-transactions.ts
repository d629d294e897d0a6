// upsertAccountTransactions: account balance changes into account_transactions.
import { type AppOf, accountTransactionRecord } from "@merchantkit/contract";
import type { Db } from "../db/database";
import { wirePlan } from "./canonical-wire";
import { type UpsertCounts, type UpsertOptions, upsertRecords } from "./upsert-batch";
import type { UpsertSpec } from "./upsert-spec";

/** An account transaction as the account client returns it (transactions/service/query). */
export type AccountTransactionInput = AppOf<typeof accountTransactionRecord>;

// The ISO 8601 forms Postgres reads unambiguously; the zone defaults to UTC when absent.
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-](\d{2})(?::?(\d{2}))?)?$/i;

/**
 * balanceUpdDate as a timestamptz Postgres can read, or null. The contract only checks the
 * date-and-time head, so an odd form (or an impossible date such as Feb 30, which Postgres
 * would refuse and so fail the whole batch) is stored as null here and stays readable in raw.
 */
export function normaliseBalanceTime(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const m = ISO.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, sec = "00", fraction = "", zone = "Z", zh = "0", zm = "0"] = m;
  const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  const real =
    day.getUTCFullYear() === Number(y) &&
    day.getUTCMonth() === Number(mo) - 1 &&
    day.getUTCDate() === Number(d) &&
    Number(h) < 24 &&
    Number(mi) < 60 &&
    Number(sec) < 60 &&
    Number(zh) < 16 &&
    Number(zm) < 60;
  return real ? `${y}-${mo}-${d}T${h}:${mi}:${sec}${fraction}${zone.toUpperCase()}` : null;
}

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
  derive: (record) => ({ balanceUpdDate: normaliseBalanceTime(record.balanceUpdDate) }),
};

/** Inserts new balance changes, updates changed ones with a new version (no status here). */
export function upsertAccountTransactions(
  db: Db,
  records: readonly AccountTransactionInput[],
  opts: UpsertOptions,
): Promise<UpsertCounts> {
  return upsertRecords(db, accountTransactionSpec, records, opts);
}
