// The merchant's ledger as the reconciler reads it (ledger_entries) and the staging table its
// CSV import copies into before one merge.
import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  index,
  integer,
  numeric,
  pgTable,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { time } from "./column-types";

/** One row per merchant ledger entry (entry_id); docs/ledger-format.md describes each column. */
export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    /** The merchant's own id of the entry: the import is idempotent by it. */
    entryId: text("entry_id").primaryKey(),
    /** card_transaction | card_operation | fee | account. */
    kind: text("kind").notNull(),
    /** The provider's key the entry books: txnOrderNo, clientRequestId or operateRecordId, serviceId. */
    providerRef: text("provider_ref").notNull(),
    /** Signed: negative when money leaves the card or the merchant account. */
    amount: numeric("amount").notNull(),
    currency: text("currency").notNull(),
    bookedAt: time("booked_at").notNull(),
    /** Required for kind fee (EXCHANGE, CROSS_BORDER, TRANSACTION, CREATE, DEPOSIT...), else null. */
    feeType: text("fee_type"),
    cardId: text("card_id"),
    description: text("description"),
    /** The file and line the entry last came from. */
    sourceFile: text("source_file"),
    sourceLine: integer("source_line"),
    /** The entity it belongs to: a sub-merchant's merchantNo, '' for the merchant itself. */
    entity: text("entity").notNull().default(""),
    importedAt: time("imported_at").notNull().defaultNow(),
    updatedAt: time("updated_at").notNull().defaultNow(),
  },
  (t) => [
    check(
      "ledger_entries_kind_check",
      sql`${t.kind} in ('card_transaction', 'card_operation', 'fee', 'account')`,
    ),
    check("ledger_entries_fee_type_check", sql`(${t.kind} = 'fee') = (${t.feeType} is not null)`),
    index("ledger_entries_ref_idx").on(t.providerRef),
    // A source's entries, and when they last changed (changed-lines.ts: is a file's last
    // import still what the table holds?).
    index("ledger_entries_source_idx").on(t.sourceFile, t.updatedAt),
  ],
);

/**
 * What each ledger file (by name) held when it was last imported whole or in part: one hash per
 * data line, so the same file read again imports only the lines that changed
 * (ledger/changed-lines.ts). Derived: deleting a row only makes the next import of that file
 * read all of it.
 */
export const ledgerSourceFiles = pgTable("ledger_source_files", {
  sourceFile: text("source_file").primaryKey(),
  /** md5 of the header line. */
  headerHash: text("header_hash").notNull(),
  /** The data lines' md5s in Base64 (24 characters each), one after another in file order. */
  lineHashes: text("line_hashes").notNull(),
  /** Each data line's entry_id, in the same order, joined by newlines (ids hold none). */
  entryIds: text("entry_ids").notNull(),
  /** How many ledger_entries named this file as their source after that import. */
  entries: integer("entries").notNull(),
  importedAt: time("imported_at").notNull(),
});

/**
 * Rows of one import on their way in: COPY fills them (on its own connection), one statement
 * merges them into ledger_entries, and they are deleted. Keyed by import so imports never mix.
 */
export const ledgerStaging = pgTable(
  "ledger_staging",
  {
    importId: text("import_id").notNull(),
    lineNo: integer("line_no").notNull(),
    entryId: text("entry_id").notNull(),
    kind: text("kind").notNull(),
    providerRef: text("provider_ref").notNull(),
    amount: numeric("amount").notNull(),
    currency: text("currency").notNull(),
    bookedAt: time("booked_at").notNull(),
    feeType: text("fee_type"),
    cardId: text("card_id"),
    description: text("description"),
    entity: text("entity").notNull().default(""),
  },
  (t) => [index("ledger_staging_import_idx").on(t.importId)],
);

/**
 * Every ledger file the watched folder (RECONCILER_LEDGER_DIR) handed over: taken in, rejected,
 * or a repeat of content already taken in. The sha256 of an imported file is unique, so the same
 * content dropped twice (or found again after a crash between commit and move) is imported once.
 */
export const ledgerFiles = pgTable(
  "ledger_files",
  {
    id: bigint("id", { mode: "bigint" }).primaryKey().generatedAlwaysAsIdentity(),
    /** The file's name in the folder when it was taken. */
    name: text("name").notNull(),
    sizeBytes: bigint("size_bytes", { mode: "number" }).notNull(),
    /** sha256 (hex) of the file's bytes. */
    sha256: text("sha256").notNull(),
    /** imported | rejected | duplicate (content already imported under another drop). */
    status: text("status").notNull(),
    /** Data rows in the file (imported) or bad rows (rejected). */
    rows: integer("rows").notNull(),
    /** Why it was rejected (each bad line and rule), null otherwise. */
    reason: text("reason"),
    takenAt: time("taken_at").notNull().defaultNow(),
  },
  (t) => [
    check("ledger_files_status_check", sql`${t.status} in ('imported', 'rejected', 'duplicate')`),
    uniqueIndex("ledger_files_imported_sha_idx").on(t.sha256).where(sql`${t.status} = 'imported'`),
  ],
);
