// Write-offs: a difference finance resolves by adjustment is booked as journal entries, one per
// currency the break touches, append-only like the audit trail (the journal_entries migration's
// trigger refuses an UPDATE, DELETE or TRUNCATE): a booked entry is corrected by a new one.
import { sql } from "drizzle-orm";
import { bigint, check, date, index, numeric, pgTable, text } from "drizzle-orm/pg-core";
import { time } from "./column-types";

/** One journal entry of a write-off: the break's signed difference in one currency. */
export const journalEntries = pgTable(
  "journal_entries",
  {
    id: bigint("id", { mode: "bigint" }).primaryKey().generatedAlwaysAsIdentity(),
    /** The accounting date the entry is booked on (the write-off's --date, else its UTC day). */
    entryDate: date("entry_date").notNull(),
    /** The account the difference is booked to (the ledger's own code, as typed). */
    account: text("account").notNull(),
    /** provider − ledger in this currency, from the break's records: what the ledger lacks. */
    amount: numeric("amount").notNull(),
    currency: text("currency").notNull(),
    /** The break written off (breaks.break_id). */
    breakId: text("break_id").notNull(),
    /** The break's records in this currency, "side:kind:ref" joined by ", ". */
    reference: text("reference").notNull(),
    /** Who wrote it off, and why. */
    actor: text("actor").notNull(),
    reason: text("reason").notNull(),
    /** The break_actions row of the write-off. */
    actionId: bigint("action_id", { mode: "bigint" }).notNull(),
    createdAt: time("created_at").notNull().defaultNow(),
  },
  (t) => [
    check("journal_entries_currency_check", sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check("journal_entries_account_check", sql`length(btrim(${t.account})) > 0`),
    index("journal_entries_break_idx").on(t.breakId),
    index("journal_entries_date_idx").on(t.entryDate),
  ],
);
