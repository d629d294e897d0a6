// Finance's decisions on the tolerant pass's proposals (proposed_match breaks): one row per pair
// of a ledger entry and a provider record someone confirmed or rejected, the latest decision on
// the pair. A match run applies it while both records still hold the amounts and currencies
// decided on (passes/decided-proposals.ts); the audit trail of who decided what is break_actions.
import { sql } from "drizzle-orm";
import { bigint, check, numeric, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { time } from "./column-types";

export const proposalDecisions = pgTable(
  "proposal_decisions",
  {
    /** The ledger entry (ledger_entries.entry_id). */
    entryId: text("entry_id").notNull(),
    /** The provider record (card_transactions.txn_order_no). */
    itemRef: text("item_ref").notNull(),
    /** confirmed: the pair is a match; rejected: the pair is never proposed again. */
    decision: text("decision").notNull(),
    /** The records as decided on: a change of either lapses the decision. */
    entryAmount: numeric("entry_amount").notNull(),
    entryCurrency: text("entry_currency").notNull(),
    itemAmount: numeric("item_amount").notNull(),
    itemCurrency: text("item_currency").notNull(),
    /** The proposed_match break decided on. */
    breakId: text("break_id").notNull(),
    actor: text("actor").notNull(),
    reason: text("reason").notNull(),
    decidedAt: time("decided_at").notNull().defaultNow(),
    /** Its break_actions row. */
    actionId: bigint("action_id", { mode: "bigint" }).notNull(),
    /**
     * When a match run found a record changed (its `lapse` audit row written then): a lapsed
     * decision no longer applies, even should the figures come back; deciding again clears it.
     */
    lapsedAt: time("lapsed_at"),
  },
  (t) => [
    primaryKey({ columns: [t.entryId, t.itemRef] }),
    check("proposal_decisions_decision_check", sql`${t.decision} in ('confirmed', 'rejected')`),
  ],
);
