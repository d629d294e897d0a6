// Finance's actions on a break (accept, reopen, comment, assign, unassign): each checks the
// break's current state under row locks (its breaks row, then its break_workflow row), updates
// break_workflow and appends one audit row with the break's class, amount and currency at that
// moment, all in one transaction.
import { decimalEquals, isDecimalString } from "@merchantkit/core";
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";
import { WorkflowError } from "./workflow-error";

export const BREAK_ACTIONS = ["accept", "reopen", "comment", "assign", "unassign"] as const;
export type BreakAction = (typeof BREAK_ACTIONS)[number];

export interface BreakActionInput {
  breakId: string;
  action: BreakAction;
  /** Who acts: a person's name (trimmed, 1–100 characters). */
  actor: string;
  /** accept: the reason; comment: the comment; assign: the assignee's name. */
  text?: string | undefined;
  /**
   * accept only, optional: the break as the person saw it when they chose to accept. The accept
   * is refused with `conflict` when the break no longer shows that (a match run changed it in
   * between), so nobody accepts figures they never saw. Each field given is compared.
   */
  seen?: SeenBreak | undefined;
}

/** What the queue, `breaks show` or the console showed of a break (decimal text). */
export interface SeenBreak {
  /** The absolute difference (breaks.amount). */
  amount?: string | undefined;
  /** The signed provider and ledger amounts; "" when the break had no such side. */
  providerAmount?: string | undefined;
  ledgerAmount?: string | undefined;
  /** pending or open. */
  status?: string | undefined;
}

export interface BreakActionResult {
  /** The audit row's id (decimal text: a bigint). */
  actionId: string;
  breakId: string;
  action: BreakAction;
  /** The break's workflow status after the action: open, pending, accepted or resolved. */
  status: string;
  assignee: string | null;
}

/** The actor of the audit rows the reconciler writes itself (lapses): no person signs with it. */
export const RECONCILER_ACTOR = "reconciler";

const MAX_NAME = 100;
const MAX_TEXT = 2000;

function required(value: string | undefined, field: string, max: number, what: string): string {
  const trimmed = (value ?? "").trim();
  if (trimmed === "") throw new WorkflowError("invalid", `${field} is required: ${what}`, field);
  if (trimmed.length > max)
    throw new WorkflowError("invalid", `${field} must be at most ${max} characters`, field);
  return trimmed;
}

/** Checks the input before any database work; answers it trimmed. */
export function checkActionInput(input: BreakActionInput): BreakActionInput {
  if (!BREAK_ACTIONS.includes(input.action))
    throw new WorkflowError(
      "invalid",
      `action must be one of ${BREAK_ACTIONS.join(", ")}`,
      "action",
    );
  const breakId = required(input.breakId, "breakId", 200, "the break's id");
  const actor = required(
    input.actor,
    "actor",
    MAX_NAME,
    "who acts (--as NAME or RECONCILER_ACTOR)",
  );
  // The audit trail must tell a person's action from the reconciler's own (a lapse).
  if (actor.toLowerCase() === RECONCILER_ACTOR)
    throw new WorkflowError(
      "invalid",
      `actor "${actor}" is the name the reconciler signs its own audit rows with: act under your own name`,
      "actor",
    );
  let text: string | undefined;
  if (input.action === "accept")
    text = required(input.text, "reason", MAX_TEXT, "why the difference is accepted");
  else if (input.action === "comment")
    text = required(input.text, "comment", MAX_TEXT, "the comment's text");
  else if (input.action === "assign")
    text = required(input.text, "assignee", MAX_NAME, "the name the break is assigned to");
  else if (input.text !== undefined && input.text.trim() !== "")
    throw new WorkflowError("invalid", `${input.action} takes no text`, "text");
  const seen = input.seen === undefined ? undefined : checkSeen(input.action, input.seen);
  return { breakId, action: input.action, actor, text, seen };
}

function checkSeen(action: BreakAction, seen: SeenBreak): SeenBreak {
  if (action !== "accept")
    throw new WorkflowError("invalid", "only accept takes the break as it was seen", "seen");
  const amounts: [keyof SeenBreak, string | undefined, boolean][] = [
    ["amount", seen.amount, false],
    ["providerAmount", seen.providerAmount, true],
    ["ledgerAmount", seen.ledgerAmount, true],
  ];
  for (const [field, value, mayBeNone] of amounts)
    if (value !== undefined && !(mayBeNone && value === "") && !isDecimalString(value))
      throw new WorkflowError("invalid", `${field} must be a decimal number, not ${value}`, field);
  if (seen.status !== undefined && !["pending", "open"].includes(seen.status))
    throw new WorkflowError("invalid", "status must be pending or open", "status");
  return seen;
}

interface LockedBreak extends Record<string, unknown> {
  class: string;
  amount: string;
  currency: string | null;
  provider_amount: string | null;
  ledger_amount: string | null;
  status: string;
  accepted_at: string | null;
  accepted_by: string | null;
  assignee: string | null;
}

/**
 * Applies one action. Two people acting on the same break at once are serialised by the lock
 * on its break_workflow row: the second sees the first's result (an accept meets an accepted
 * break and fails with `conflict`, naming who accepted it and when). The breaks row is locked
 * first (FOR SHARE), in the order a match run takes them (it writes breaks, then lapses
 * acceptances, in one transaction): an action waits for a run rewriting the break and then reads
 * the run's figures, so an accept never records an amount the break no longer has, and a run
 * waits for an accept in flight and then checks it.
 */
export async function applyBreakAction(db: Db, raw: BreakActionInput): Promise<BreakActionResult> {
  const input = checkActionInput(raw);
  const { breakId, action, actor } = input;
  const text = input.text ?? "";
  return db.transaction(async (tx) => {
    const [known] = await queryRows(
      tx,
      sql`SELECT 1 FROM breaks WHERE break_id = ${breakId} FOR SHARE`,
    );
    if (!known)
      throw new WorkflowError("unknown_break", `no break has the id ${breakId}`, "breakId");
    // The workflow row exists before it is locked, so the lock always has a row to wait on.
    await queryRows(
      tx,
      sql`INSERT INTO break_workflow (break_id, last_action, last_actor, last_action_at)
        VALUES (${breakId}, 'none', ${actor}, now()) ON CONFLICT (break_id) DO NOTHING`,
    );
    const [b] = await queryRows<LockedBreak>(
      tx,
      sql`SELECT b.class, b.amount::text AS amount, b.currency, b.status,
          b.provider_amount::text AS provider_amount, b.ledger_amount::text AS ledger_amount,
          to_char(w.accepted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS accepted_at,
          w.accepted_by, w.assignee
        FROM break_workflow w JOIN breaks b ON b.break_id = w.break_id
        WHERE w.break_id = ${breakId} FOR UPDATE OF w`,
    );
    if (!b) throw new WorkflowError("unknown_break", `no break has the id ${breakId}`, "breakId");
    refuseByState(action, b, breakId);
    if (input.seen) refuseIfChanged(input.seen, b, breakId);
    await queryRows(tx, workflowUpdate(input, b));
    const [row] = await queryRows<{ id: string }>(
      tx,
      sql`INSERT INTO break_actions (break_id, actor, action, text, class, amount, currency)
        VALUES (${breakId}, ${actor}, ${action}, ${text}, ${b.class}, ${b.amount}::numeric, ${b.currency})
        RETURNING id::text AS id`,
    );
    const accepted =
      action === "accept" ? true : action === "reopen" ? false : b.accepted_at !== null;
    const assignee =
      action === "assign" ? text : action === "unassign" ? null : (b.assignee ?? null);
    return {
      actionId: String(row?.id),
      breakId,
      action,
      status: b.status !== "resolved" && accepted ? "accepted" : b.status,
      assignee,
    };
  });
}

function refuseByState(action: BreakAction, b: LockedBreak, breakId: string): void {
  if (action === "accept") {
    if (b.status === "resolved")
      throw new WorkflowError("conflict", `break ${breakId} is resolved: nothing to accept`);
    if (b.accepted_at !== null)
      throw new WorkflowError(
        "conflict",
        `break ${breakId} is already accepted (by ${b.accepted_by} at ${b.accepted_at}); nothing done`,
      );
  }
  if (action === "reopen" && b.accepted_at === null)
    throw new WorkflowError("conflict", `break ${breakId} is not accepted: nothing to reopen`);
  if (action === "unassign" && b.assignee === null)
    throw new WorkflowError("conflict", `break ${breakId} is not assigned: nothing to unassign`);
}

/** Refuses an accept of figures other than those the person saw (a run changed the break). */
function refuseIfChanged(seen: SeenBreak, b: LockedBreak, breakId: string): void {
  const sameAmount = (shown: string | undefined, now: string | null) =>
    shown === undefined ||
    (shown === "" ? now === null : now !== null && decimalEquals(shown, now));
  const changed = [
    sameAmount(seen.amount, b.amount) ? "" : `amount ${seen.amount} is now ${b.amount}`,
    sameAmount(seen.providerAmount, b.provider_amount)
      ? ""
      : `provider amount ${seen.providerAmount || "-"} is now ${b.provider_amount ?? "-"}`,
    sameAmount(seen.ledgerAmount, b.ledger_amount)
      ? ""
      : `ledger amount ${seen.ledgerAmount || "-"} is now ${b.ledger_amount ?? "-"}`,
    seen.status === undefined || seen.status === b.status
      ? ""
      : `status ${seen.status} is now ${b.status}`,
  ].filter((why) => why !== "");
  if (changed.length > 0)
    throw new WorkflowError(
      "conflict",
      `break ${breakId} changed since it was shown (${changed.join("; ")}): nothing done, look at it again`,
    );
}

function workflowUpdate(input: BreakActionInput, b: LockedBreak) {
  const { breakId, action, actor } = input;
  const last = sql`last_action = ${action}, last_actor = ${actor}, last_action_at = now()`;
  switch (action) {
    case "accept":
      return sql`UPDATE break_workflow SET ${last}, accepted_at = now(), accepted_by = ${actor},
        accepted_reason = ${input.text ?? ""}, accepted_class = ${b.class},
        accepted_amount = ${b.amount}::numeric, accepted_currency = ${b.currency},
        accepted_provider_amount = ${b.provider_amount}::numeric,
        accepted_ledger_amount = ${b.ledger_amount}::numeric,
        accepted_ledger_currencies = (SELECT ${ledgerCurrencies("break_workflow.break_id")})
        WHERE break_id = ${breakId}`;
    case "reopen":
      return sql`UPDATE break_workflow SET ${last}, ${CLEAR_ACCEPTANCE} WHERE break_id = ${breakId}`;
    case "assign":
      return sql`UPDATE break_workflow SET ${last}, assignee = ${input.text ?? ""}, assigned_at = now()
        WHERE break_id = ${breakId}`;
    case "unassign":
      return sql`UPDATE break_workflow SET ${last}, assignee = NULL, assigned_at = NULL
        WHERE break_id = ${breakId}`;
    default:
      return sql`UPDATE break_workflow SET ${last} WHERE break_id = ${breakId}`;
  }
}

/**
 * The currencies of break `breakId`'s ledger records (SQL, the break's id as an expression),
 * sorted and '/'-joined; null without ledger records. breaks.currency is the provider's.
 */
export const ledgerCurrencies = (breakId: string) =>
  sql.raw(`(SELECT string_agg(DISTINCT r.currency, '/' ORDER BY r.currency) FROM break_records r
    WHERE r.break_id = ${breakId} AND r.side = 'ledger')`);

/** The columns an acceptance sets, cleared (reopen, lapse). */
export const CLEAR_ACCEPTANCE = sql.raw(
  "accepted_at = NULL, accepted_by = NULL, accepted_reason = NULL, accepted_class = NULL, accepted_amount = NULL, accepted_currency = NULL, accepted_provider_amount = NULL, accepted_ledger_amount = NULL, accepted_ledger_currencies = NULL",
);
