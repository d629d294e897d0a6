// Card transactions (queryTxnList and issuing.cardTransactionEvent) and their version history.
import { sql } from "drizzle-orm";
import { check, index, integer, numeric, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { jsonbText, storedRecordColumns, time } from "./column-types";

/** One row per card transaction (txnOrderNo), holding its latest accepted state. */
export const cardTransactions = pgTable(
  "card_transactions",
  {
    /** txnOrderNo: the provider's key of the transaction event. */
    txnOrderNo: text("txn_order_no").primaryKey(),
    /** cardId (64-bit id as digits); a masked number from a webhook never replaces digits. */
    cardId: text("card_id").notNull(),
    /** txnType: AUTHORIZATION, CLEARING, REVERSAL, REFUND, VERIFICATION (open set). */
    txnType: text("txn_type").notNull(),
    /** txnStatus: P processing, S success, F failed; S/F are never set back to P. */
    txnStatus: text("txn_status").notNull(),
    /** originTxnOrderNo: the authorization a clearing, reversal or refund belongs to. */
    originTxnOrderNo: text("origin_txn_order_no"),
    /** originTxnOrderNoForRefund: the clearing a refund gives back. */
    originTxnOrderNoForRefund: text("origin_txn_order_no_for_refund"),
    /** authorizationCode: shared by an authorization and its follow-ups. */
    authorizationCode: text("authorization_code"),
    /** authMessageDesc: "Approved" or the decline reason. */
    authMessageDesc: text("auth_message_desc"),
    /** authTime: when the authorization happened (epoch ms on the wire). */
    authTime: time("auth_time"),
    /** transactionTime: the time queryTxnList windows filter on. */
    transactionTime: time("transaction_time"),
    /** settleTime: when the record reached S (absent while P). */
    settleTime: time("settle_time"),
    /** transactionAmount/Currency: what the acceptor charged, in its currency. */
    transactionAmount: numeric("transaction_amount"),
    transactionCurrency: text("transaction_currency"),
    /** cardAmount/Currency: the amount in the card's currency (the hold). */
    cardAmount: numeric("card_amount"),
    cardCurrency: text("card_currency"),
    /** settleAmount/Currency: what was finally debited or credited (present once S). */
    settleAmount: numeric("settle_amount"),
    settleCurrency: text("settle_currency"),
    /** transactionFee (+currency): flat fee, e.g. ATM withdrawals. */
    transactionFee: numeric("transaction_fee"),
    transactionFeeCurrency: text("transaction_fee_currency"),
    /** crossBorderFee (+currency): acceptor abroad. */
    crossBorderFee: numeric("cross_border_fee"),
    crossBorderFeeCurrency: text("cross_border_fee_currency"),
    /** exchangeFee (+currency): transaction currency differs from the card's. */
    exchangeFee: numeric("exchange_fee"),
    exchangeFeeCurrency: text("exchange_fee_currency"),
    /** The acceptor (merchant of purchase) as the record names it. */
    merchantId: text("merchant_id"),
    merchantName: text("merchant_name"),
    merchantCountry: text("merchant_country"),
    merchantCountryCode: text("merchant_country_code"),
    merchantStateProvince: text("merchant_state_province"),
    merchantCity: text("merchant_city"),
    merchantPostalCode: text("merchant_postal_code"),
    merchantMccCode: text("merchant_mcc_code"),
    ...storedRecordColumns(),
  },
  (t) => [
    check("card_transactions_status_check", sql`${t.txnStatus} in ('P', 'S', 'F')`),
    check("card_transactions_source_check", sql`${t.source} in ('sync', 'webhook')`),
    index("card_transactions_card_time_idx").on(t.cardId, t.transactionTime),
    index("card_transactions_time_idx").on(t.transactionTime),
    index("card_transactions_origin_idx").on(t.originTxnOrderNo),
    // The refunds of a clearing (an incremental match run takes them with it).
    index("card_transactions_refund_of_idx").on(t.originTxnOrderNoForRefund),
    // Open items (still P) are what the re-poll and stale-authorization checks look for.
    index("card_transactions_pending_idx").on(t.transactionTime).where(sql`${t.txnStatus} = 'P'`),
    // The fee arm of provider_items reads only the transactions that carry a fee, instead of
    // every transaction a second time (half of a count of provider_items where fees are rare).
    index("card_transactions_fees_idx")
      .on(t.txnOrderNo)
      .where(
        sql`${t.transactionFee} IS NOT NULL OR ${t.crossBorderFee} IS NOT NULL OR ${t.exchangeFee} IS NOT NULL`,
      ),
  ],
);

/** Every accepted state of a card transaction, the first one included. */
export const cardTransactionVersions = pgTable(
  "card_transaction_versions",
  {
    txnOrderNo: text("txn_order_no").notNull(),
    /** 1 for the first state seen, then +1 per change. */
    version: integer("version").notNull(),
    /** The record as it was in this version (canonical wire form). */
    raw: jsonbText("raw").notNull(),
    rawHash: text("raw_hash").notNull(),
    /** txnStatus of this version, to answer "when did it flip?" without reading raw. */
    txnStatus: text("txn_status").notNull(),
    /** When the reconciler stored this version. */
    recordedAt: time("recorded_at").notNull().defaultNow(),
    /** sync or webhook. */
    source: text("source").notNull(),
  },
  (t) => [primaryKey({ columns: [t.txnOrderNo, t.version] })],
);
