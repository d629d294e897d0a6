// Finance's work on breaks: the current state of each break someone acted on (accepted,
// assigned), and the append-only audit trail of every action (the database refuses to change
// or delete an audit row: see the break_workflow migration's trigger).
import { sql } from "drizzle-orm";
import { bigint, check, index, numeric, pgTable, text } from "drizzle-orm/pg-core";
import { time } from "./column-types";

/** One row per break someone acted on: who accepted it and what, and who has it. */
export const breakWorkflow = pgTable("break_workflow", {
  /** The break's stable id (breaks.break_id). */
  breakId: text("break_id").primaryKey(),
  /** Set while the break is accepted: it leaves the open queue. */
  acceptedAt: time("accepted_at"),
  acceptedBy: text("accepted_by"),
  acceptedReason: text("accepted_reason"),
  /** The class, amount and currency accepted: a later run that changes them lapses it. */
  acceptedClass: text("accepted_class"),
  acceptedAmount: numeric("accepted_amount"),
  acceptedCurrency: text("accepted_currency"),
  /**
   * The break's signed provider and ledger amounts when accepted (breaks.provider_amount,
   * ledger_amount; null where the break has no such side). accepted_amount is the absolute
   * difference: these keep its sign, so a difference that flips sign lapses the acceptance.
   */
  acceptedProviderAmount: numeric("accepted_provider_amount"),
  acceptedLedgerAmount: numeric("accepted_ledger_amount"),
  /**
   * The currencies of the break's ledger records when accepted (break_records, side ledger;
   * sorted, '/'-joined): breaks.currency is the provider's, so a ledger rebooked in another
   * currency (a currency_mismatch moving from SGD to JPY) changed no other accepted figure.
   */
  acceptedLedgerCurrencies: text("accepted_ledger_currencies"),
  assignee: text("assignee"),
  assignedAt: time("assigned_at"),
  lastAction: text("last_action").notNull(),
  lastActor: text("last_actor").notNull(),
  lastActionAt: time("last_action_at").notNull(),
});

/** Append-only: one row per action on a break, with the break as it was at that moment. */
export const breakActions = pgTable(
  "break_actions",
  {
    id: bigint("id", { mode: "bigint" }).primaryKey().generatedAlwaysAsIdentity(),
    breakId: text("break_id").notNull(),
    /** A person's name, or "reconciler" for a lapse raised by a match run. */
    actor: text("actor").notNull(),
    at: time("at").notNull().defaultNow(),
    /**
     * accept | reopen | comment | assign | unassign | lapse | write_off | confirm | reject |
     * match | unmatch (a manual match, on each break its records were in), and maker-checker's
     * request_approval | approve | decline (workflow/approvals.ts).
     */
    action: text("action").notNull(),
    /** The reason, the comment, the assignee, or why an acceptance lapsed. */
    text: text("text").notNull().default(""),
    class: text("class").notNull(),
    amount: numeric("amount").notNull(),
    currency: text("currency"),
  },
  (t) => [
    check(
      "break_actions_action_check",
      sql`${t.action} in ('accept', 'reopen', 'comment', 'assign', 'unassign', 'lapse', 'write_off', 'confirm', 'reject', 'match', 'unmatch', 'request_approval', 'approve', 'decline')`,
    ),
    check("break_actions_actor_check", sql`length(btrim(${t.actor})) > 0`),
    index("break_actions_break_idx").on(t.breakId, t.id),
    index("break_actions_at_idx").on(t.at),
  ],
);
