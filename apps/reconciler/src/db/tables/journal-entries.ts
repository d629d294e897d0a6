// Write-offs: a difference finance resolves by adjustment is booked as journal entries, one per
// currency the break touches, append-only like the audit trail (the journal_entries migration's
// trigger refuses an UPDATE, DELETE or TRUNCATE): a booked entry is corrected by a new one.
import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  date,
  index,
  numeric,
  pgTable,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
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
    /** The break_actions row of the write-off (of the lapse or reopen, for a reversal). */
    actionId: bigint("action_id", { mode: "bigint" }).notNull(),
    /**
     * The entry this one reverses (amount negated), booked when the write-off's acceptance ends
     * (a run lapses it, or someone reopens the break): a second write-off then books the new
     * figures without the first still counting. Each entry is reversed at most once.
     */
    reversesId: bigint("reverses_id", { mode: "bigint" }),
    createdAt: time("created_at").notNull().defaultNow(),
  },
  (t) => [
    check("journal_entries_currency_check", sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check("journal_entries_account_check", sql`length(btrim(${t.account})) > 0`),
    index("journal_entries_break_idx").on(t.breakId),
    index("journal_entries_date_idx").on(t.entryDate),
    uniqueIndex("journal_entries_reverses_idx").on(t.reversesId),
  ],
);
