// Maker-checker for the console's accepts and write-offs above the configured amount
// (config/second-approval.ts): the first approver's accept or write-off is stored as a pending
// request (approval_requests, audit row request_approval) instead of being applied; another,
// different approver approves it (the accept or write-off is then applied through
// break-actions.ts or write-off.ts as the first approver's, with their reason, and an audit row
// approve by the second, in one transaction) or declines it (audit row decline; the first
// approver may also withdraw their own request this way). One pending request per break; while
// it waits the break takes no other accept or write-off.
import { compareDecimal } from "@merchantkit/core";
import { type SQL, sql } from "drizzle-orm";
import { limitFor, type SecondApprovalLimits } from "../config/second-approval";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";
import { utcText } from "../db/utc-text";
import {
  actionsSince,
  appendAudit,
  appendLastAction,
  applyBreakAction,
  checkActionInput,
  type LockedBreak,
  lockBreak,
  refuseByState,
  refuseIfChanged,
  resubmitted,
  type SeenBreak,
} from "./break-actions";
import { freeText, personName } from "./typed-text";
import { WorkflowError } from "./workflow-error";
import {
  checkWriteOffInput,
  RECORDS_EFFECT,
  writeOffBreak,
  writeOffDifferences,
  writeOffText,
} from "./write-off";

type ApprovedAction = "accept" | "write_off";

export interface ApprovalRequest {
  id: string;
  breakId: string;
  action: ApprovedAction;
  requestedBy: string;
  requestedAt: string;
  reason: string;
  account: string | null;
  entryDate: string | null;
  amount: string;
  currency: string | null;
}

interface MakerInput {
  breakId: string;
  action: ApprovedAction;
  actor: string;
  reason: string;
  /** write_off: the account and the optional accounting date. */
  account?: string | undefined;
  date?: string | undefined;
  /** accept: the break as the page showed it (break-actions.ts SeenBreak). */
  seen?: SeenBreak | undefined;
}

/**
 * What happened to an accept or write-off sent from the console: applied at once (at or below
 * the limit) or stored as a request waiting for a second approver.
 */
type MakerResult =
  | { outcome: "applied"; actionId: string }
  | { outcome: "pending"; request: ApprovalRequest };

/** ApprovalRequest's columns under its names, and the sides' amounts the request saw. */
const REQUEST_COLUMNS = sql`id::text AS id, break_id AS "breakId", action, requested_by AS "requestedBy",
  ${utcText("requested_at")} AS "requestedAt", reason, account, entry_date::text AS "entryDate",
  amount::text AS amount, currency, provider_amount::text AS "providerAmount",
  ledger_amount::text AS "ledgerAmount"`;

function toRequest({
  providerAmount: _provider,
  ledgerAmount: _ledger,
  ...request
}: Record<string, unknown>): ApprovalRequest {
  return request as unknown as ApprovalRequest;
}

/** The request waiting on break `breakId`, if one. */
export async function pendingApproval(
  db: Db,
  breakId: string,
): Promise<ApprovalRequest | undefined> {
  const [row] = await queryRows(
    db,
    sql`SELECT ${REQUEST_COLUMNS} FROM approval_requests
      WHERE break_id = ${breakId} AND decided_at IS NULL`,
  );
  return row ? toRequest(row) : undefined;
}

function refusePending(pending: Record<string, unknown> | undefined, breakId: string): void {
  if (pending)
    throw new WorkflowError(
      "conflict",
      `break ${breakId} has a ${pending.action === "accept" ? "accept" : "write-off"} by ${pending.requestedBy} waiting for a second approver: approve or decline it first`,
    );
}

const pendingRow = (tx: Db, breakId: string, lock: SQL = sql``) =>
  queryRows(
    tx,
    sql`SELECT ${REQUEST_COLUMNS} FROM approval_requests
      WHERE break_id = ${breakId} AND decided_at IS NULL ${lock}`,
  );

/** `lastActionId` when it is an audit row's id (a bigint's digits), else a WorkflowError. */
function auditRowId(lastActionId: string): string {
  if (!/^(0|[1-9]\d{0,18})$/.test(lastActionId))
    throw new WorkflowError("invalid", "lastActionId must be an audit row's id", "lastActionId");
  return lastActionId;
}

/** Refuses when someone changed the break's state after audit row `lastActionId` (comments aside). */
async function refuseIfActedOnSince(tx: Db, breakId: string, lastActionId: string): Promise<void> {
  auditRowId(lastActionId);
  const [changed] = await queryRows<{ actor: string; action: string }>(
    tx,
    sql`SELECT actor, action FROM break_actions WHERE break_id = ${breakId}
      AND id > ${lastActionId}::bigint AND action <> 'comment' ORDER BY id DESC LIMIT 1`,
  );
  if (changed)
    throw new WorkflowError(
      "conflict",
      `break ${breakId} changed since you looked (${changed.actor}: ${changed.action}): nothing done, look at it again`,
    );
}

/**
 * The audit row of the same write-off (actor, reason, account, and the date when one was given)
 * written after the view `lastActionId` it was sent from: the form sent again, answered as the
 * first was and not booked twice.
 */
async function resubmittedWriteOff(
  tx: Db,
  breakId: string,
  lastActionId: string,
  w: { actor: string; reason: string; account: string; date?: string | undefined },
): Promise<string | undefined> {
  const later = await actionsSince(tx, breakId, auditRowId(lastActionId));
  const same = resubmitted(later, w.actor, "write_off", writeOffText(w.reason, w.account));
  if (!same || w.date === undefined) return same?.id;
  const [booked] = await queryRows(
    tx,
    sql`SELECT 1 FROM journal_entries WHERE action_id = ${same.id}::bigint
      AND entry_date = ${w.date}::date LIMIT 1`,
  );
  return booked ? same.id : undefined;
}

/**
 * Whether break `breakId` needs a second approver: its amount at stake (in its currency) or its
 * money in any currency its records touch (provider − ledger there, what a write-off books) is
 * above that currency's limit. A currency_mismatch is money in two currencies, each judged
 * against its own limit: its provider side under the USD limit does not let its ledger side pass
 * over the EUR one.
 */
async function aboveLimit(
  tx: Db,
  breakId: string,
  b: LockedBreak,
  limits: SecondApprovalLimits | undefined,
): Promise<boolean> {
  if (!limits) return false;
  const legs = await queryRows<{ currency: string | null; amount: string }>(
    tx,
    sql`SELECT ${b.currency}::text AS currency, ${b.amount}::text AS amount
      UNION ALL
      SELECT currency, abs(${RECORDS_EFFECT})::text
      FROM break_records WHERE break_id = ${breakId} AND amount IS NOT NULL GROUP BY currency`,
  );
  return legs.some((leg) => {
    const limit = limitFor(limits, leg.currency);
    return limit !== undefined && compareDecimal(leg.amount, limit) > 0;
  });
}

/**
 * An approver's accept or write-off from the console: applied at once when the break's money is
 * at most the limit of its currency in every currency (aboveLimit), else stored as a pending
 * request (nothing else changes).
 * Refused while another request waits on the break.
 */
export async function acceptOrWriteOff(
  db: Db,
  input: MakerInput,
  limits: SecondApprovalLimits | undefined,
): Promise<MakerResult> {
  // The same checks, and the same errors, as the action itself.
  const checked =
    input.action === "accept"
      ? checkActionInput({
          breakId: input.breakId,
          action: "accept",
          actor: input.actor,
          text: input.reason,
          seen: input.seen,
        })
      : checkWriteOffInput({
          breakId: input.breakId,
          actor: input.actor,
          account: input.account ?? "",
          reason: input.reason,
          date: input.date,
        });
  const { breakId, actor } = checked;
  const reason = "reason" in checked ? checked.reason : (checked.text ?? "");
  return db.transaction(async (tx) => {
    const b = await lockBreak(tx, breakId, actor);
    const [pending] = await pendingRow(tx, breakId);
    // The same request sent again (a double click, a retry) answers as the first did.
    if (
      pending?.requestedBy === actor &&
      pending.action === input.action &&
      pending.reason === reason
    )
      return { outcome: "pending", request: toRequest(pending) };
    refusePending(pending, breakId);
    const lastActionId = input.seen?.lastActionId;
    if ("account" in checked && lastActionId !== undefined) {
      const first = await resubmittedWriteOff(tx, breakId, lastActionId, checked);
      if (first !== undefined) return { outcome: "applied", actionId: first };
      await refuseIfActedOnSince(tx, breakId, lastActionId);
    }
    if (!(await aboveLimit(tx, breakId, b, limits))) {
      if (input.action === "accept") {
        const done = await applyBreakAction(tx, {
          breakId,
          action: "accept",
          actor,
          text: reason,
          seen: input.seen,
        });
        return { outcome: "applied", actionId: done.actionId };
      }
      const done = await writeOffBreak(tx, {
        breakId,
        actor,
        reason,
        account: input.account ?? "",
        date: input.date,
      });
      return { outcome: "applied", actionId: done.actionId };
    }
    refuseByState(input.action, b, breakId);
    // A write-off with nothing to book is refused now, not when a second approver approves it.
    if (input.action === "write_off") await writeOffDifferences(tx, breakId);
    if (input.action === "accept" && input.seen) {
      const { lastActionId: _seenId, ...figures } = input.seen;
      refuseIfChanged(figures, b, breakId);
      if (lastActionId !== undefined) await refuseIfActedOnSince(tx, breakId, lastActionId);
    }
    const account = "account" in checked ? checked.account : null;
    const date = "date" in checked ? (checked.date ?? null) : null;
    const what =
      input.action === "accept"
        ? `accept: ${reason}`
        : `write-off to ${account}${date ? ` on ${date}` : ""}: ${reason}`;
    const actionId = await appendLastAction(tx, breakId, b, actor, "request_approval", what);
    const [row] = await queryRows(
      tx,
      sql`INSERT INTO approval_requests (break_id, action, requested_by, reason, account,
          entry_date, amount, currency, provider_amount, ledger_amount, request_action_id)
        VALUES (${breakId}, ${input.action}, ${actor}, ${reason}, ${account}, ${date}::date,
          ${b.amount}::numeric, ${b.currency}, ${b.provider_amount}::numeric,
          ${b.ledger_amount}::numeric, ${actionId}::bigint)
        RETURNING ${REQUEST_COLUMNS}`,
    );
    return { outcome: "pending", request: toRequest(row as Record<string, unknown>) };
  });
}

/**
 * A second approver decides the request waiting on break `breakId`: approve applies it (refused
 * for the approver who asked, and when a run changed the break's figures since the request:
 * decline it then), decline drops it (the asker may withdraw their own).
 */
export async function decideApproval(
  db: Db,
  input: { breakId: string; actor: string; decision: "approve" | "decline"; reason?: string },
): Promise<{ actionId: string; request: ApprovalRequest }> {
  const actor = personName(input.actor, "actor", "who decides");
  const note =
    input.reason === undefined || input.reason.trim() === ""
      ? ""
      : freeText(input.reason, "reason", "why");
  const breakId = input.breakId.trim();
  return db.transaction(async (tx) => {
    const b = await lockBreak(tx, breakId, actor);
    const [row] = await pendingRow(tx, breakId, sql`FOR UPDATE`);
    if (!row)
      throw new WorkflowError(
        "conflict",
        `break ${breakId} has no accept or write-off waiting for approval`,
      );
    const request = toRequest(row);
    if (input.decision === "approve") {
      if (request.requestedBy === actor)
        throw new WorkflowError(
          "forbidden",
          `${actor} asked for this ${request.action === "accept" ? "accept" : "write-off"}: a second, different approver must approve it`,
          "actor",
        );
      refuseIfChanged(
        {
          amount: request.amount,
          currency: request.currency ?? "",
          providerAmount: (row.providerAmount as string | null) ?? "",
          ledgerAmount: (row.ledgerAmount as string | null) ?? "",
        },
        b,
        breakId,
      );
      if (request.action === "accept")
        await applyBreakAction(tx, {
          breakId,
          action: "accept",
          actor: request.requestedBy,
          text: request.reason,
        });
      else
        await writeOffBreak(tx, {
          breakId,
          actor: request.requestedBy,
          account: request.account ?? "",
          reason: request.reason,
          date: request.entryDate ?? undefined,
        });
    }
    const done = input.decision === "approve" ? "approved" : "declined";
    const text = `${done} ${request.requestedBy}'s ${request.action === "accept" ? "accept" : "write-off"} (request ${request.id})${note ? `: ${note}` : ""}`;
    // Approved, the accept or write-off it applied stays the break's last action; declined, the
    // decline is.
    const append = input.decision === "decline" ? appendLastAction : appendAudit;
    const actionId = await append(tx, breakId, b, actor, input.decision, text);
    await queryRows(
      tx,
      sql`UPDATE approval_requests SET decision = ${done}, decided_by = ${actor}, decided_at = now()
        WHERE id = ${request.id}::bigint`,
    );
    return { actionId, request };
  });
}
