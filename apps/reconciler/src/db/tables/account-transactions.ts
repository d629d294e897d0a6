// Account transactions (balance changes read by serviceId) and their version history.
import { sql } from "drizzle-orm";
import { check, index, integer, numeric, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { jsonbText, storedRecordColumns, time } from "./column-types";

/** One row per balance change of the merchant account (acntTxnId). */
export const accountTransactions = pgTable(
  "account_transactions",
  {
    /** acntTxnId (64-bit id as digits). */
    acntTxnId: text("acnt_txn_id").primaryKey(),
    /** serviceId (64-bit id as digits): the operation or payout that caused the change
     * (a card operation's operateRecordId, a payout's payoutId; docs/assumptions.md). */
    serviceId: text("service_id").notNull(),
    currency: text("currency").notNull(),
    /** balanceType: which balance moved (AVAILABLE in the sandbox; open set). */
    balanceType: text("balance_type").notNull(),
    /** amount: signed, negative for a debit. */
    amount: numeric("amount").notNull(),
    /** balanceUpdDate: when the balance changed (ISO 8601 on the wire; null if unreadable). */
    balanceUpdDate: time("balance_upd_date"),
    /** businessType: CARD_DEPOSIT, FEE, CARD_RETURN, TOP_UP... (open set). */
    businessType: text("business_type").notNull(),
    /** externalOrderId: the merchant's reference (a card operation's clientRequestId). */
    externalOrderId: text("external_order_id"),
    remark: text("remark"),
    /** The entity it belongs to: a sub-merchant's merchantNo, '' for the merchant itself. */
    entity: text("entity").notNull().default(""),
    ...storedRecordColumns(),
  },
  (t) => [
    check("account_transactions_source_check", sql`${t.source} in ('sync', 'webhook')`),
    index("account_transactions_service_idx").on(t.serviceId),
    index("account_transactions_external_order_idx").on(t.externalOrderId),
    index("account_transactions_time_idx").on(t.balanceUpdDate),
  ],
);

/** Every accepted state of an account transaction, the first one included. */
export const accountTransactionVersions = pgTable(
  "account_transaction_versions",
  {
    acntTxnId: text("acnt_txn_id").notNull(),
    version: integer("version").notNull(),
    raw: jsonbText("raw").notNull(),
    rawHash: text("raw_hash").notNull(),
    recordedAt: time("recorded_at").notNull().defaultNow(),
    source: text("source").notNull(),
  },
  (t) => [primaryKey({ columns: [t.acntTxnId, t.version] })],
);
