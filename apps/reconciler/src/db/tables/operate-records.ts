// Card operation records (getOperateRecordList and issuing.cardOperateEvent), their fees and history.
import { sql } from "drizzle-orm";
import {
  check,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from "drizzle-orm/pg-core";
import { jsonbText, storedRecordColumns, time } from "./column-types";

/** One row per card operation (create, deposit, freeze, return...), its latest accepted state. */
export const operateRecords = pgTable(
  "operate_records",
  {
    /** operateRecordId (64-bit id as digits); also the serviceId of its account postings. */
    operateRecordId: text("operate_record_id").primaryKey(),
    /** cardId (64-bit id as digits). */
    cardId: text("card_id").notNull(),
    /** clientRequestId: the merchant's idempotency key of the operation (the ledger's key). */
    clientRequestId: text("client_request_id").notNull(),
    /** type: CREATE, DEPOSIT, FREEZE, UNFREEZE, TERMINATE, RETURN (open set). */
    type: text("type").notNull(),
    /** status: P processing, S success, F failed; S/F are never set back to P. */
    status: text("status").notNull(),
    /** amount/currency: absent for operations that move no money (freeze). */
    amount: numeric("amount"),
    currency: text("currency"),
    /** operateTime: the time getOperateRecordList windows filter on; events carry none, so a
     * webhook never erases one a query stored. */
    operateTime: timestamp("operate_time", { withTimezone: true, mode: "date" }),
    /** remark: why an operation failed, or a note. */
    remark: text("remark"),
    ...storedRecordColumns(),
  },
  (t) => [
    check("operate_records_status_check", sql`${t.status} in ('P', 'S', 'F')`),
    check("operate_records_source_check", sql`${t.source} in ('sync', 'webhook')`),
    index("operate_records_card_time_idx").on(t.cardId, t.operateTime),
    index("operate_records_time_idx").on(t.operateTime),
    index("operate_records_client_request_idx").on(t.clientRequestId),
    index("operate_records_pending_idx").on(t.operateTime).where(sql`${t.status} = 'P'`),
  ],
);

/** The feeList of an operation's latest state, one row per item; replaced with the record. */
export const operateRecordFees = pgTable(
  "operate_record_fees",
  {
    operateRecordId: text("operate_record_id").notNull(),
    /** Position in feeList (0-based). */
    feeIndex: integer("fee_index").notNull(),
    /** feeType: CREATE (card creation fee), DEPOSIT (deposit fee), open set. */
    feeType: text("fee_type").notNull(),
    feeAmount: numeric("fee_amount").notNull(),
    feeCurrency: text("fee_currency").notNull(),
  },
  (t) => [primaryKey({ columns: [t.operateRecordId, t.feeIndex] })],
);

/** Every accepted state of a card operation, the first one included. */
export const operateRecordVersions = pgTable(
  "operate_record_versions",
  {
    operateRecordId: text("operate_record_id").notNull(),
    version: integer("version").notNull(),
    raw: jsonbText("raw").notNull(),
    rawHash: text("raw_hash").notNull(),
    /** status of this version. */
    status: text("status").notNull(),
    recordedAt: time("recorded_at").notNull().defaultNow(),
    source: text("source").notNull(),
  },
  (t) => [primaryKey({ columns: [t.operateRecordId, t.version] })],
);
