// upsertCardTransactions: card transactions in the SDK's form into card_transactions.
import { type AppOf, cardTransactionEventData } from "@merchantkit/contract";
import type { Db } from "../db/database";
import { wirePlan } from "./canonical-wire";
import { type UpsertCounts, type UpsertOptions, upsertRecords } from "./upsert-batch";
import type { FieldSpec, UpsertSpec } from "./upsert-spec";

/**
 * A card transaction as the issuing client returns it (queryTxnList) or a cardTransactionEvent
 * carries it: ids and amounts as strings, times as epoch ms. The event's form is used because
 * it is the wider one (its cardId may be a masked card number).
 */
export type CardTransactionInput = AppOf<typeof cardTransactionEventData>;

const text = (column: string, key: string): FieldSpec => ({ column, key, type: "text" });
const numeric = (column: string, key: string): FieldSpec => ({ column, key, type: "numeric" });
const time = (column: string, key: string): FieldSpec => ({ column, key, type: "epoch_ms" });

export const cardTransactionSpec: UpsertSpec<CardTransactionInput> = {
  noun: "card transaction",
  table: "card_transactions",
  versionsTable: "card_transaction_versions",
  keyColumn: "txn_order_no",
  keyField: "txnOrderNo",
  status: { column: "txn_status", field: "txnStatus" },
  plan: wirePlan(cardTransactionEventData.wire),
  fields: [
    text("txn_order_no", "txnOrderNo"),
    text("card_id", "cardId"),
    text("txn_type", "txnType"),
    text("txn_status", "txnStatus"),
    text("origin_txn_order_no", "originTxnOrderNo"),
    text("origin_txn_order_no_for_refund", "originTxnOrderNoForRefund"),
    text("authorization_code", "authorizationCode"),
    text("auth_message_desc", "authMessageDesc"),
    time("auth_time", "authTime"),
    time("transaction_time", "transactionTime"),
    time("settle_time", "settleTime"),
    numeric("transaction_amount", "transactionAmount"),
    text("transaction_currency", "transactionCurrency"),
    numeric("card_amount", "cardAmount"),
    text("card_currency", "cardCurrency"),
    numeric("settle_amount", "settleAmount"),
    text("settle_currency", "settleCurrency"),
    numeric("transaction_fee", "transactionFee"),
    text("transaction_fee_currency", "transactionFeeCurrency"),
    numeric("cross_border_fee", "crossBorderFee"),
    text("cross_border_fee_currency", "crossBorderFeeCurrency"),
    numeric("exchange_fee", "exchangeFee"),
    text("exchange_fee_currency", "exchangeFeeCurrency"),
    text("merchant_id", "merchantId"),
    text("merchant_name", "merchantName"),
    text("merchant_country", "merchantCountry"),
    text("merchant_country_code", "merchantCountryCode"),
    text("merchant_state_province", "merchantStateProvince"),
    text("merchant_city", "merchantCity"),
    text("merchant_postal_code", "merchantPostalCode"),
    text("merchant_mcc_code", "merchantMccCode"),
  ],
  onUpdate: {
    // A webhook may carry a masked card number: it never replaces the card id a query stored.
    card_id: `CASE WHEN excluded.card_id !~ '^[0-9]+$' AND t.card_id ~ '^[0-9]+$' THEN t.card_id ELSE excluded.card_id END`,
  },
};

/**
 * Inserts new card transactions, updates changed ones with a new version, leaves identical ones
 * untouched, and never moves an S or F transaction back to P (counted as skippedDowngrades).
 * One statement per batch; pass a transaction to make it part of a larger unit.
 */
export function upsertCardTransactions(
  db: Db,
  records: readonly CardTransactionInput[],
  opts: UpsertOptions,
): Promise<UpsertCounts> {
  return upsertRecords(db, cardTransactionSpec, records, opts);
}
