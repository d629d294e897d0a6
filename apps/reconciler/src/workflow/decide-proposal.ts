// Confirming or rejecting a proposal (a proposed_match break): in one transaction, under the
// locks every action on the break takes (break-actions.ts lockBreak), it stores the decision on
// the pair of records (proposal_decisions, with their amounts and currencies as decided), marks
// both records changed (match_changes) so the next run, incremental or full, re-matches them
// with the decision (passes/decided-proposals.ts), and appends one audit row (confirm, reject).
// The break itself is resolved by that next run: a confirmed pair becomes a match, a rejected
// one the breaks its records are without the proposal.
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";
import { appendLastAction, lockBreak } from "./break-actions";
import { freeText, personName, requiredBreakId } from "./typed-text";
import { WorkflowError } from "./workflow-error";

const PROPOSAL_DECISIONS = ["confirm", "reject"] as const;
export type ProposalDecision = (typeof PROPOSAL_DECISIONS)[number];

interface DecideProposalInput {
  breakId: string;
  decision: ProposalDecision;
  /** Who decides (a person's name: typed-text.ts personName). */
  actor: string;
  /** Why: required to reject, optional to confirm. */
  reason?: string | undefined;
}

interface DecideProposalResult {
  /** The audit row's id. */
  actionId: string;
  breakId: string;
  decision: ProposalDecision;
  entryId: string;
  /** The provider record (its txnOrderNo). */
  providerRef: string;
}

/** Checks a decision before any database work; answers it as it is stored. */
export function checkDecisionInput(input: DecideProposalInput): DecideProposalInput {
  if (!PROPOSAL_DECISIONS.includes(input.decision))
    throw new WorkflowError("invalid", "decision must be confirm or reject", "decision");
  const breakId = requiredBreakId(input.breakId);
  const given = input.reason !== undefined && input.reason.trim() !== "";
  return {
    breakId,
    decision: input.decision,
    actor: personName(input.actor, "actor", "who decides (--as NAME or RECONCILER_ACTOR)"),
    reason:
      input.decision === "reject" || given
        ? freeText(input.reason, "reason", `why the proposal is ${input.decision}ed`)
        : undefined,
  };
}

interface Pair extends Record<string, unknown> {
  side: string;
  record_kind: string;
  record_ref: string;
  amount: string;
  currency: string;
}

/** Confirms or rejects the proposal break `breakId`; refused for any other break. */
export async function decideProposal(
  db: Db,
  raw: DecideProposalInput,
): Promise<DecideProposalResult> {
  const input = checkDecisionInput(raw);
  const { breakId, decision, actor } = input;
  const reason = input.reason ?? "";
  return db.transaction(async (tx) => {
    const b = await lockBreak(tx, breakId, actor);
    if (b.class !== "proposed_match")
      throw new WorkflowError(
        "conflict",
        `break ${breakId} is a ${b.class}, not a proposed_match: only a proposal is confirmed or rejected`,
      );
    if (b.status === "resolved")
      throw new WorkflowError("conflict", `break ${breakId} is resolved: nothing to ${decision}`);
    const records = await queryRows<Pair>(
      tx,
      sql`SELECT side, record_kind, record_ref, amount::text AS amount, currency
        FROM break_records WHERE break_id = ${breakId} ORDER BY side`,
    );
    const ledger = records.find((r) => r.side === "ledger");
    const provider = records.find((r) => r.side === "provider");
    if (!ledger || !provider)
      throw new WorkflowError("conflict", `break ${breakId} no longer holds a pair to decide on`);
    const [pending] = await queryRows<{ decision: string; actor: string }>(
      tx,
      sql`SELECT decision, actor FROM proposal_decisions
        WHERE entry_id = ${ledger.record_ref} AND item_ref = ${provider.record_ref}
          AND entry_amount = ${ledger.amount}::numeric AND entry_currency = ${ledger.currency}
          AND item_amount = ${provider.amount}::numeric AND item_currency = ${provider.currency}
          AND lapsed_at IS NULL`,
    );
    if (pending)
      throw new WorkflowError(
        "conflict",
        `break ${breakId} is already ${pending.decision} by ${pending.actor}; the next match run applies it`,
      );
    const actionId = await appendLastAction(tx, breakId, b, actor, decision, reason);
    await queryRows(
      tx,
      sql`INSERT INTO proposal_decisions (entry_id, item_ref, decision, entry_amount,
          entry_currency, item_amount, item_currency, break_id, actor, reason, action_id)
        VALUES (${ledger.record_ref}, ${provider.record_ref}, ${`${decision}ed`},
          ${ledger.amount}::numeric, ${ledger.currency}, ${provider.amount}::numeric,
          ${provider.currency}, ${breakId}, ${actor}, ${reason}, ${actionId}::bigint)
        ON CONFLICT (entry_id, item_ref) DO UPDATE SET decision = excluded.decision,
          entry_amount = excluded.entry_amount, entry_currency = excluded.entry_currency,
          item_amount = excluded.item_amount, item_currency = excluded.item_currency,
          break_id = excluded.break_id, actor = excluded.actor, reason = excluded.reason,
          decided_at = now(), action_id = excluded.action_id, lapsed_at = NULL`,
    );
    // Both records re-matched by the next run, incremental too (match/incremental/).
    await queryRows(
      tx,
      sql`INSERT INTO match_changes (kind, ref) VALUES ('entry', ${ledger.record_ref}),
        ('key', ${provider.record_ref})`,
    );
    return {
      actionId,
      breakId,
      decision,
      entryId: ledger.record_ref,
      providerRef: provider.record_ref,
    };
  });
}
