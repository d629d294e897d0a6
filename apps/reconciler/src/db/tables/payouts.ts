// Payouts (txn/queryList and payout result notifications) and their version history.
import { sql } from "drizzle-orm";
import { check, index, integer, numeric, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { jsonbText, storedRecordColumns, time } from "./column-types";

/**
 * One row per payout (payoutId), its latest accepted state. Read so that every payout's
 * serviceId (its payoutId) is known and its account postings are read again when it changes
 * (P → F credits PAYOUT_REFUND); the money itself is matched through those postings.
 */
export const payouts = pgTable(
  "payouts",
  {
    /** payoutId (64-bit id as digits); also the serviceId of its account postings. */
    payoutId: text("payout_id").primaryKey(),
    /** requestId: the merchant's id and idempotency key of the payout. */
    requestId: text("request_id").notNull(),
    /** payoutStatus: P processing, S success, F failed; S/F are never set back to P. */
    payoutStatus: text("payout_status").notNull(),
    /** payoutMethod: LOCAL, SWIFT, … (absent in a notification). */
    payoutMethod: text("payout_method"),
    beneficiaryId: text("beneficiary_id"),
    sourceAmount: numeric("source_amount"),
    sourceCurrency: text("source_currency"),
    targetAmount: numeric("target_amount"),
    targetCurrency: text("target_currency"),
    fee: numeric("fee"),
    feeCurrency: text("fee_currency"),
    /** createTime ("YYYY-MM-DD HH:mm:ss", UTC): what the stream's windows filter on. */
    createTime: time("create_time"),
    /** finishTime: when it reached S or F. */
    finishTime: time("finish_time"),
    errorCode: text("error_code"),
    errorMsg: text("error_msg"),
    ...storedRecordColumns(),
  },
  (t) => [
    check("payouts_status_check", sql`${t.payoutStatus} in ('P', 'S', 'F')`),
    check("payouts_source_check", sql`${t.source} in ('sync', 'webhook')`),
    index("payouts_create_time_idx").on(t.createTime),
    index("payouts_request_idx").on(t.requestId),
    index("payouts_pending_idx").on(t.createTime).where(sql`${t.payoutStatus} = 'P'`),
  ],
);

/** Every accepted state of a payout, the first one included. */
export const payoutVersions = pgTable(
  "payout_versions",
  {
    payoutId: text("payout_id").notNull(),
    version: integer("version").notNull(),
    raw: jsonbText("raw").notNull(),
    rawHash: text("raw_hash").notNull(),
    /** payoutStatus of this version. */
    payoutStatus: text("payout_status").notNull(),
    recordedAt: time("recorded_at").notNull().defaultNow(),
    source: text("source").notNull(),
  },
  (t) => [primaryKey({ columns: [t.payoutId, t.version] })],
);
