// Finance's actions on a break (accept, reopen, comment, assign, unassign): each checks the
// break's current state under row locks (its breaks row, then its break_workflow row), and what
// the person's view of the break showed (the last audit row, for accept the figures too), updates
// break_workflow and appends one audit row with the break's class, amount and currency at that
// moment, all in one transaction.
import { decimalEquals, isDecimalString } from "@merchantkit/core";
import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";
import { utcText } from "../db/utc-text";
import { reverseWriteOffs } from "./reverse-write-off";
import { assigneeName, freeText, personName, RECONCILER_ACTOR } from "./typed-text";
import { WorkflowError } from "./workflow-error";

export const BREAK_ACTIONS = ["accept", "reopen", "comment", "assign", "unassign"] as const;
export type BreakAction = (typeof BREAK_ACTIONS)[number];

export interface BreakActionInput {
  breakId: string;
  action: BreakAction;
  /** Who acts: a person's name (normalised: typed-text.ts personName; 1–100 characters). */
  actor: string;
  /** accept: the reason; comment: the comment; assign: the assignee's name. */
  text?: string | undefined;
  /**
   * Optional: the break as the person saw it when they chose to act. The action is refused with
   * `conflict` when the break no longer shows that, so nobody acts on a state they never saw:
   * `lastActionId` (every action) when someone changed the break's workflow since (accepted,
   * reopened, assigned, unassigned it, or a run lapsed its acceptance: a comment changes no
   * state), the figures (accept only) when a match run changed them. Each field given is
   * compared. It also makes a resubmission harmless: the same action with the same text by the
   * same actor already written after `lastActionId` is not written again.
   */
  seen?: SeenBreak | undefined;
}

/** What the queue, `breaks show` or the console showed of a break (decimal text). */
export interface SeenBreak {
  /**
   * The id of the break's last audit row when it was shown (decimal text; "0": none yet), the
   * console's page version: BreakDetail.lastActionId.
   */
  lastActionId?: string | undefined;
  /** The absolute difference (breaks.amount). */
  amount?: string | undefined;
  /** The signed provider and ledger amounts; "" when the break had no such side. */
  providerAmount?: string | undefined;
  ledgerAmount?: string | undefined;
  /** pending or open. */
  status?: string | undefined;
  /** The break's class (missing_at_provider, amount_mismatch, ...). */
  class?: string | undefined;
  /** The break's currency (breaks.currency, the provider's when it has a side); "" when none. */
  currency?: string | undefined;
  /** Its ledger records' currencies, sorted and '/'-joined; "" when it has none. */
  ledgerCurrency?: string | undefined;
  /**
   * One amount as `breaks list` or `show` printed it (decimal text), with its currency when one
   * was given: the amount at stake, the provider's or the ledger's, signed or without its sign
   * (a person copies whichever figure they read, and a currency_mismatch prints its sides in
   * two currencies). Unchanged while the break still holds it in that currency.
   */
  printed?: { amount: string; currency?: string | undefined } | undefined;
}

interface BreakActionResult {
  /** The audit row's id (decimal text: a bigint). */
  actionId: string;
  breakId: string;
  action: BreakAction;
  /** The break's workflow status after the action: open, pending, accepted or resolved. */
  status: string;
  assignee: string | null;
  /**
   * True when nothing was written: the same action with the same text by the same actor was
   * already written after the view it was sent from (a resubmitted form); actionId is that row's.
   */
  duplicate: boolean;
}

export { RECONCILER_ACTOR };

/**
 * Checks the input before any database work; answers it as the audit trail keeps it (names
 * normalised, text trimmed, card numbers masked: typed-text.ts).
 */
export function checkActionInput(input: BreakActionInput): BreakActionInput {
  if (!BREAK_ACTIONS.includes(input.action))
    throw new WorkflowError(
      "invalid",
      `action must be one of ${BREAK_ACTIONS.join(", ")}`,
      "action",
    );
  const breakId = (input.breakId ?? "").trim();
  if (breakId === "")
    throw new WorkflowError("invalid", "breakId is required: the break's id", "breakId");
  if (breakId.length > 200)
    throw new WorkflowError("invalid", "breakId must be at most 200 characters", "breakId");
  const actor = personName(input.actor, "actor", "who acts (--as NAME or RECONCILER_ACTOR)");
  let text: string | undefined;
  if (input.action === "accept")
    text = freeText(input.text, "reason", "why the difference is accepted");
  else if (input.action === "comment") text = freeText(input.text, "comment", "the comment's text");
  else if (input.action === "assign") text = assigneeName(input.text);
  else if (input.text !== undefined && input.text.trim() !== "")
    throw new WorkflowError("invalid", `${input.action} takes no text`, "text");
  const seen = input.seen === undefined ? undefined : checkSeen(input.action, input.seen);
  return { breakId, action: input.action, actor, text, seen };
}

const FIGURES = [
  "amount",
  "providerAmount",
  "ledgerAmount",
  "status",
  "class",
  "currency",
  "ledgerCurrency",
  "printed",
] as const;

function checkSeen(action: BreakAction, seen: SeenBreak): SeenBreak {
  // An audit row's id is a bigint: a longer or larger number is no row's (and Postgres refuses it).
  if (
    seen.lastActionId !== undefined &&
    (!/^(0|[1-9]\d{0,18})$/.test(seen.lastActionId) ||
      BigInt(seen.lastActionId) > 9_223_372_036_854_775_807n)
  )
    throw new WorkflowError(
      "invalid",
      `lastActionId must be an audit row's id (a whole number), not ${seen.lastActionId}`,
      "lastActionId",
    );
  if (action !== "accept" && FIGURES.some((field) => seen[field] !== undefined))
    throw new WorkflowError("invalid", "only accept takes the figures as they were seen", "seen");
  const amounts: [keyof SeenBreak, string | undefined, boolean][] = [
    ["amount", seen.amount, false],
    ["providerAmount", seen.providerAmount, true],
    ["ledgerAmount", seen.ledgerAmount, true],
    ["amount", seen.printed?.amount, false],
  ];
  for (const [field, value, mayBeNone] of amounts)
    if (value !== undefined && !(mayBeNone && value === "") && !isDecimalString(value))
      throw new WorkflowError("invalid", `${field} must be a decimal number, not ${value}`, field);
  if (seen.status !== undefined && !["pending", "open"].includes(seen.status))
    throw new WorkflowError("invalid", "status must be pending or open", "status");
  return seen;
}

export interface LockedBreak extends Record<string, unknown> {
  class: string;
  amount: string;
  currency: string | null;
  provider_amount: string | null;
  ledger_amount: string | null;
  status: string;
  accepted_at: string | null;
  accepted_by: string | null;
  assignee: string | null;
  ledger_currencies: string | null;
}

/** A row of a break's audit trail (break_actions), as its history shows it. */
export interface AuditRow {
  id: string;
  at: string;
  actor: string;
  action: string;
  text: string;
  class: string;
  amount: string;
  currency: string | null;
}

/** An audit row written after the one a view showed. */
export type LaterAction = Pick<AuditRow, "id" | "at" | "actor" | "action" | "text"> &
  Record<string, unknown>;

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
    const b = await lockBreak(tx, breakId, actor);
    const result = (
      actionId: string,
      accepted: boolean,
      assignee: string | null,
      duplicate: boolean,
    ) => ({
      actionId,
      breakId,
      action,
      status: b.status !== "resolved" && accepted ? "accepted" : b.status,
      assignee,
      duplicate,
    });
    const seenId = input.seen?.lastActionId;
    if (seenId !== undefined) {
      const later = await actionsSince(tx, breakId, seenId);
      const same = resubmitted(later, actor, action, text);
      if (same) return result(same.id, b.accepted_at !== null, b.assignee ?? null, true);
      if (action !== "comment") refuseIfActedOn(action, later, breakId);
    }
    refuseByState(action, b, breakId);
    if (input.seen) refuseIfChanged(input.seen, b, breakId);
    await queryRows(tx, workflowUpdate(input, b));
    const actionId = await appendAudit(tx, breakId, b, actor, action, text);
    if (action === "reopen")
      await queryRows(
        tx,
        reverseWriteOffs(
          sql`SELECT ${breakId}::text AS break_id, ${actionId}::bigint AS action_id,
            ${`write-off reopened by ${actor}`}::text AS why`,
          actor,
        ),
      );
    const accepted =
      action === "accept" ? true : action === "reopen" ? false : b.accepted_at !== null;
    const assignee =
      action === "assign" ? text : action === "unassign" ? null : (b.assignee ?? null);
    return result(actionId, accepted, assignee, false);
  });
}

/**
 * Locks break `breakId` for an action in transaction `tx` (its breaks row FOR SHARE, then its
 * break_workflow row, created if missing, FOR UPDATE: applyBreakAction says why in this order)
 * and answers its state; refuses an unknown id.
 */
export async function lockBreak(tx: Db, breakId: string, actor: string): Promise<LockedBreak> {
  const [known] = await queryRows(
    tx,
    sql`SELECT 1 FROM breaks WHERE break_id = ${breakId} FOR SHARE`,
  );
  if (!known) throw new WorkflowError("unknown_break", `no break has the id ${breakId}`, "breakId");
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
        ${utcText("w.accepted_at")} AS accepted_at,
        w.accepted_by, w.assignee, ${ledgerCurrencies("w.break_id")} AS ledger_currencies
      FROM break_workflow w JOIN breaks b ON b.break_id = w.break_id
      WHERE w.break_id = ${breakId} FOR UPDATE OF w`,
  );
  if (!b) throw new WorkflowError("unknown_break", `no break has the id ${breakId}`, "breakId");
  return b;
}

/**
 * Appends an audit row to break `breakId` with the break's class, amount and currency at this
 * moment (`b`, read under its lock); answers the row's id.
 */
export async function appendAudit(
  tx: Db,
  breakId: string,
  b: Pick<LockedBreak, "class" | "amount" | "currency">,
  actor: string,
  action: string,
  text: string | null,
): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    tx,
    sql`INSERT INTO break_actions (break_id, actor, action, text, class, amount, currency)
      VALUES (${breakId}, ${actor}, ${action}, ${text}, ${b.class}, ${b.amount}::numeric, ${b.currency})
      RETURNING id::text AS id`,
  );
  return String(row?.id);
}

/** appendAudit, the action recorded as the break's last too (break_workflow.last_action). */
export async function appendLastAction(...audit: Parameters<typeof appendAudit>): Promise<string> {
  const [tx, breakId, , actor, action] = audit;
  const actionId = await appendAudit(...audit);
  await queryRows(
    tx,
    sql`UPDATE break_workflow SET last_action = ${action}, last_actor = ${actor},
      last_action_at = now() WHERE break_id = ${breakId}`,
  );
  return actionId;
}

/**
 * The audit rows of break `breakId` after row `seenId` (the one a view showed), in order. Read
 * under the break's lock: every action on the break (and a lapse) writes its row holding it.
 */
export function actionsSince(tx: Db, breakId: string, seenId: string): Promise<LaterAction[]> {
  // In the order of the number: the output column "id" is text ("10" before "9").
  return queryRows<LaterAction>(
    tx,
    sql`SELECT id::text AS id, actor, action, text, ${utcText("at")} AS at
      FROM break_actions WHERE break_id = ${breakId} AND id > ${seenId}::bigint
      ORDER BY break_actions.id`,
  );
}

/**
 * The row among `later` (actionsSince) of the same action with the same text by the same actor:
 * the form was sent again (a double click, a retry), and it is answered as the first was.
 */
export const resubmitted = (later: LaterAction[], actor: string, action: string, text: string) =>
  later.find((r) => r.actor === actor && r.action === action && r.text === text);

/** "bob reopened it at 2026-11-27T10:00:00Z" for an audit row. */
function describeAction(r: LaterAction): string {
  const done: Record<string, string> = {
    accept: "accepted it",
    reopen: "reopened it",
    assign: `assigned it to ${r.text}`,
    unassign: "unassigned it",
    lapse: "lapsed its acceptance",
    write_off: "wrote it off",
    match: "matched its records by hand",
    unmatch: "undid its manual match",
  };
  return `${r.actor} ${done[r.action] ?? `${r.action} it`} at ${r.at}`;
}

/** Who works a break: an assignment races other assignments only. */
const ASSIGNMENT: readonly string[] = ["assign", "unassign"];

/**
 * Refuses an action when the break was acted on since the person looked, in a way that bears on
 * it: an assignment on another assignment; an accept or a reopen on anything but comments and
 * assignments (who works a break says nothing about its figures or its state).
 */
function refuseIfActedOn(action: BreakAction, later: LaterAction[], breakId: string): void {
  const bears = ASSIGNMENT.includes(action)
    ? (r: LaterAction) => ASSIGNMENT.includes(r.action)
    : (r: LaterAction) => r.action !== "comment" && !ASSIGNMENT.includes(r.action);
  const changes = later.filter(bears);
  if (changes.length === 0) return;
  const shown = changes.slice(0, 5).map(describeAction);
  if (changes.length > 5) shown.push(`${changes.length - 5} more`);
  throw new WorkflowError(
    "conflict",
    `break ${breakId} changed since you looked (${shown.join("; ")}): nothing done, look at it again`,
  );
}

export function refuseByState(
  action: BreakAction | "write_off",
  b: LockedBreak,
  breakId: string,
): void {
  // A resolved break is history: a note on it is all that is left to do.
  if (b.status === "resolved" && action !== "comment")
    throw new WorkflowError(
      "conflict",
      `break ${breakId} is resolved: nothing to ${action === "write_off" ? "write off" : action}; it takes comments only`,
    );
  if (action === "accept" || action === "write_off") {
    if (b.accepted_at !== null)
      throw new WorkflowError(
        "conflict",
        `break ${breakId} is already accepted (by ${b.accepted_by} at ${b.accepted_at}); nothing done${action === "write_off" ? ": reopen it first to write it off" : ""}`,
      );
  }
  if (action === "reopen" && b.accepted_at === null)
    throw new WorkflowError("conflict", `break ${breakId} is not accepted: nothing to reopen`);
  if (action === "unassign" && b.assignee === null)
    throw new WorkflowError("conflict", `break ${breakId} is not assigned: nothing to unassign`);
}

/** Refuses an accept of figures other than those the person saw (a run changed the break). */
export function refuseIfChanged(seen: SeenBreak, b: LockedBreak, breakId: string): void {
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
    seen.class === undefined || seen.class === b.class
      ? ""
      : `class ${seen.class} is now ${b.class}`,
    seen.currency === undefined || seen.currency === (b.currency ?? "")
      ? ""
      : `currency ${seen.currency || "-"} is now ${b.currency ?? "-"}`,
    seen.ledgerCurrency === undefined || seen.ledgerCurrency === (b.ledger_currencies ?? "")
      ? ""
      : `ledger currency ${seen.ledgerCurrency || "-"} is now ${b.ledger_currencies ?? "-"}`,
    seen.printed === undefined ? "" : printedChange(seen.printed, b),
  ].filter((why) => why !== "");
  if (changed.length > 0)
    throw new WorkflowError(
      "conflict",
      `break ${breakId} changed since it was shown (${changed.join("; ")}): nothing done, look at it again`,
    );
}

/**
 * "" when the break still prints `printed` (SeenBreak.printed), else what it prints now. A
 * negative amount is compared with the signed sides, one without a sign with every amount's
 * absolute value; the currency, when given, with the one that amount is printed in.
 */
function printedChange(printed: NonNullable<SeenBreak["printed"]>, b: LockedBreak): string {
  const provider = b.currency ? [b.currency] : [];
  // The ledger's side is in its records' currencies (breaks.currency is the provider's).
  const ledger = b.ledger_currencies?.split("/") ?? provider;
  const amounts: [string, string | null, string[]][] = [
    ["", b.amount, provider],
    ["provider ", b.provider_amount, provider],
    ["ledger ", b.ledger_amount, ledger],
  ];
  const typed = printed.amount;
  const same = amounts.filter(
    ([, amount]) =>
      amount !== null &&
      decimalEquals(typed, typed.startsWith("-") ? amount : amount.replace(/^-/, "")),
  );
  const currencies = same.flatMap(([, , currency]) => currency);
  if (same.length > 0 && (printed.currency === undefined || currencies.includes(printed.currency)))
    return "";
  if (same.length > 0)
    return `currency ${printed.currency} is now ${[...new Set(currencies)].join("/") || "-"}`;
  const now = amounts
    .filter(([, amount]) => amount !== null)
    .map(([side, amount, currency]) => `${side}${amount} ${currency.join("/")}`.trim());
  return `amount ${typed} is now ${now.join("; ")}`;
}

/**
 * The update that makes break `breakId` accepted by `actor` for `reason`, keeping the figures
 * accepted (a later run that changes them lapses it: lapse-acceptances.ts); `last` sets the
 * last action (an accept, or a write-off: write-off.ts).
 */
export function acceptance(
  breakId: string,
  b: LockedBreak,
  actor: string,
  reason: string,
  last: SQL,
) {
  return sql`UPDATE break_workflow SET ${last}, accepted_at = now(), accepted_by = ${actor},
    accepted_reason = ${reason}, accepted_class = ${b.class},
    accepted_amount = ${b.amount}::numeric, accepted_currency = ${b.currency},
    accepted_provider_amount = ${b.provider_amount}::numeric,
    accepted_ledger_amount = ${b.ledger_amount}::numeric,
    accepted_ledger_currencies = (SELECT ${ledgerCurrencies("break_workflow.break_id")})
    WHERE break_id = ${breakId}`;
}

function workflowUpdate(input: BreakActionInput, b: LockedBreak) {
  const { breakId, action, actor } = input;
  const last = sql`last_action = ${action}, last_actor = ${actor}, last_action_at = now()`;
  switch (action) {
    case "accept":
      return acceptance(breakId, b, actor, input.text ?? "", last);
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
