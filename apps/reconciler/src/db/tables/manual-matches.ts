// Finance's manual matches: ledger entries and provider records that no pass paired, put
// together by a person with a reason (workflow/manual-match.ts). A match run applies each active
// one while every record it holds is still unmatched with the amount and currency matched on
// (passes/manual-matches.ts); otherwise the run lapses it. The audit trail of who matched,
// unmatched or lapsed what is break_actions, on the breaks the records were in.
import { sql } from "drizzle-orm";
import { bigint, check, index, numeric, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { time } from "./column-types";

/** One row per manual match: who made it and why, and whether it still holds. */
export const manualMatches = pgTable(
  "manual_matches",
  {
    id: bigint("id", { mode: "bigint" }).primaryKey().generatedAlwaysAsIdentity(),
    /** active: applied by every run; unmatched: undone by a person; lapsed: a record changed. */
    status: text("status").notNull(),
    /** The one currency of every record it holds. */
    currency: text("currency").notNull(),
    /** The sum of each side (equal: a manual match leaves no difference). */
    amount: numeric("amount").notNull(),
    actor: text("actor").notNull(),
    reason: text("reason").notNull(),
    createdAt: time("created_at").notNull().defaultNow(),
    /** When, by whom and why it stopped holding (unmatch or lapse). */
    endedAt: time("ended_at"),
    endedBy: text("ended_by"),
    endedReason: text("ended_reason"),
  },
  (t) => [
    check("manual_matches_status_check", sql`${t.status} in ('active', 'unmatched', 'lapsed')`),
    check("manual_matches_currency_check", sql`${t.currency} ~ '^[A-Z]{3}$'`),
    index("manual_matches_status_idx").on(t.status),
  ],
);

/** The records of each manual match, as they were when matched: a change of one lapses it. */
export const manualMatchRecords = pgTable(
  "manual_match_records",
  {
    matchId: bigint("match_id", { mode: "bigint" }).notNull(),
    /** provider | ledger. */
    side: text("side").notNull(),
    /** card_transaction | card_operation | fee | account | ledger_entry. */
    recordKind: text("record_kind").notNull(),
    /** The provider record's ref (as match_members), or the entry_id. */
    recordRef: text("record_ref").notNull(),
    amount: numeric("amount").notNull(),
    currency: text("currency").notNull(),
    /** The break the record was in when matched: its history holds the match's audit rows. */
    breakId: text("break_id").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.matchId, t.side, t.recordKind, t.recordRef] }),
    index("manual_match_records_ref_idx").on(t.side, t.recordRef),
    check("manual_match_records_side_check", sql`${t.side} in ('provider', 'ledger')`),
  ],
);
