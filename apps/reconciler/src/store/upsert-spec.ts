// How one record type maps onto its table: the description the upsert SQL is generated from.
import type { wirePlan } from "./canonical-wire";

/**
 * text and numeric are read from the record's wire JSON as they are (a JSON number's digits
 * become the text or the numeric exactly); epoch_ms is a JSON integer of milliseconds turned
 * into a timestamptz; time is an ISO 8601 text the store normalised in JS (see `derive`).
 */
export type FieldType = "text" | "numeric" | "epoch_ms" | "time";

export interface FieldSpec {
  /** Column in the table. */
  column: string;
  /** Field of the record (app and wire name). */
  key: string;
  type: FieldType;
  /** Read from the values `derive` computed instead of the record itself. */
  derived?: true;
}

export interface UpsertSpec<R> {
  /** What one record is called in error messages, e.g. "card transaction". */
  noun: string;
  table: string;
  versionsTable: string;
  /** Primary key: column and record field. */
  keyColumn: string;
  keyField: keyof R & string;
  /** P/S/F status that is never moved from S or F back to P; absent for records without one. */
  status?: { column: string; field: keyof R & string };
  /** Every column filled from a record, key and status included. */
  fields: FieldSpec[];
  /** Compiled wire schema of the record's contract codec (ids and amounts as JSON numbers). */
  plan: ReturnType<typeof wirePlan>;
  /** Values computed in JS for `derived` fields (e.g. a normalised timestamp). */
  derive?: (record: R) => Record<string, string | null>;
  /** Column → SQL for its value on update, where `t` is the stored row and `excluded` the new. */
  onUpdate?: Record<string, string>;
  /**
   * The record's key is the serviceId of its account postings: a new or changed record queues
   * it in service_ids (under this source) for a (new) fetch, in the upsert's statement.
   */
  revealsServiceIds?: "operate_record" | "payout";
  /**
   * A statement run after each batch's upsert, in the same transaction, for writes that must
   * see what other transactions committed while the upsert waited for their row locks: the
   * upsert's CTEs read the snapshot taken before that wait, a later statement a fresh one. Its
   * text continues `WITH keys AS (…)` (one row per inserted or updated record, `key`): further
   * CTEs, each led by a comma, then the statement. Not run when no record changed.
   */
  afterUpsert?: string;
}
