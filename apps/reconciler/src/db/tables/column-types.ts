// Column types shared by the reconciler's tables: times, the raw payload as jsonb read back as
// text, and the bookkeeping every stored provider record carries.
import { customType, integer, text, timestamp } from "drizzle-orm/pg-core";

/** A timestamptz read as a Date (the one time type of every table). */
export const time = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

/**
 * A jsonb column whose TypeScript value is the JSON text. Postgres keeps the document (numbers
 * as numeric, so 64-bit ids and "0.10" keep their digits); reading it never goes through
 * JSON.parse, which would round 1953712585351499776. Parse the text with @merchantkit/core's
 * parseJson when the structure is needed. openDatabase() sets the drivers' jsonb parser to
 * "keep the text"; a value that arrives already parsed means the database was opened another
 * way, and is refused rather than silently rounded.
 */
export const jsonbText = customType<{ data: string; driverData: string }>({
  dataType() {
    return "jsonb";
  },
  toDriver(value) {
    return value;
  },
  fromDriver(value) {
    if (typeof value !== "string")
      throw new TypeError(
        "a jsonb value arrived parsed (64-bit numbers may have lost digits): open the database with openDatabase()",
      );
    return value;
  },
});

/**
 * The last columns of every stored provider record (card transactions, operate records,
 * account transactions): what was received, its hash, its version and where it came from.
 * A fresh object per table, because drizzle binds a column builder to one table.
 */
export function storedRecordColumns() {
  return {
    /** The record in its canonical wire form (ids and amounts as JSON numbers, keys sorted). */
    raw: jsonbText("raw").notNull(),
    /** sha256 (hex) of the canonical wire text: equal hash = unchanged record. */
    rawHash: text("raw_hash").notNull(),
    /** 1 at insert, +1 per accepted change; equals the latest version row's version. */
    version: integer("version").notNull(),
    /** When the reconciler first stored the record. */
    firstSeenAt: time("first_seen_at").notNull().defaultNow(),
    /** When the row last changed (not when it was last re-read unchanged). */
    updatedAt: time("updated_at").notNull().defaultNow(),
    /** Where the latest accepted state came from: sync (a query) or webhook. */
    source: text("source").notNull(),
  };
}
