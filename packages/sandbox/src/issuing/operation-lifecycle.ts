/**
 * A card operation's life on the virtual clock: accepted as P (money for CREATE/DEPOSIT taken
 * from the merchant account at once), settled config.settleDelayMs later to S or F, with a
 * cardOperateEvent at each status. The card changes (status, balance) only at S, so two
 * FREEZEs sent quickly are both accepted and the second one fails when it settles.
 */
import { fromMinorUnits, toMinorUnits } from "@merchantkit/core";

import { operateEventApp } from "./issuing-app-form";
import type { IssuingContext } from "./issuing-context";
import type { Card, OperateRecord, OperateType } from "./issuing-records";
import { operationFees, postCharge, postChargeReversal, postReturn } from "./operation-money";
import { failTxn } from "./txn-lifecycle";

export interface StartOperation {
  card: Card;
  type: OperateType;
  clientRequestId: string;
  /** CREATE, DEPOSIT and RETURN: the decimal amount in the card currency. */
  amount?: string | undefined;
  at: number;
}

export function startOperation(ctx: IssuingContext, input: StartOperation): OperateRecord {
  const { runtime, state } = ctx;
  const { card, type, at } = input;
  const units = input.amount === undefined ? 0n : toMinorUnits(input.amount, card.terms.scale);
  const record: OperateRecord = {
    seq: state.nextOpSeq(),
    operateRecordId: runtime.ids.next(),
    card,
    clientRequestId: input.clientRequestId,
    type,
    status: "P",
    remark: undefined,
    // Written at the card's scale, so "100.1" is recorded and posted as "100.10".
    amount: input.amount === undefined ? undefined : fromMinorUnits(units, card.terms.scale),
    currency: card.currency,
    operateTime: at,
    feeList: operationFees(card, type, units),
    finishTime: undefined,
  };
  if (type === "CREATE" || type === "DEPOSIT") postCharge(runtime.ledger, record, at);
  state.addOperation(record);
  runtime.outbox.issuingEvent("issuing.cardOperateEvent", operateEventApp(record));
  const due = at + runtime.config.settleDelayMs;
  runtime.scheduler.at(due, () => finishOperation(ctx, record, "auto", due));
  return record;
}

/**
 * Moves a P operation to its final status. "auto" applies the rules (S unless the card's
 * state at that moment makes it fail); "F" fails it whatever the rules say. A record already
 * final is left alone, so a forced outcome and the scheduled one never both apply.
 */
export function finishOperation(
  ctx: IssuingContext,
  record: OperateRecord,
  outcome: "auto" | "F",
  at: number,
): boolean {
  if (record.status !== "P") return false;
  const { runtime, state } = ctx;
  const card = record.card;
  const failure = outcome === "F" ? "failed by the sandbox admin" : settleProblem(record);
  if (failure !== undefined) {
    if (record.type === "CREATE" || record.type === "DEPOSIT") {
      postChargeReversal(runtime.ledger, record, at);
    }
    // A card whose creation failed can never be used.
    if (record.type === "CREATE") card.status = "TERMINATED";
    record.status = "F";
    record.remark = failure;
    record.feeList = [];
  } else {
    applySuccess(ctx, record, at);
    record.status = "S";
  }
  record.finishTime = at;
  state.operations.changed();
  runtime.outbox.issuingEvent("issuing.cardOperateEvent", operateEventApp(record));
  return true;
}

/** Why an operation cannot succeed with the card as it is now, or undefined. */
function settleProblem(r: OperateRecord): string | undefined {
  const card = r.card;
  if (r.type === "CREATE") return undefined;
  if (card.status === "TERMINATED") return "card is terminated";
  if (r.type === "FREEZE" && card.status !== "ACTIVE") return "card is already frozen";
  if (r.type === "UNFREEZE" && card.status !== "FROZEN") return "card is not frozen";
  if (r.type === "RETURN" && toMinorUnits(r.amount ?? "0", card.terms.scale) > card.available) {
    return "card balance not enough";
  }
  return undefined;
}

function applySuccess(ctx: IssuingContext, r: OperateRecord, at: number): void {
  const card = r.card;
  const scale = card.terms.scale;
  switch (r.type) {
    case "CREATE":
    case "DEPOSIT":
      card.available += toMinorUnits(r.amount ?? "0", scale);
      return;
    case "FREEZE":
      card.status = "FROZEN";
      return;
    case "UNFREEZE":
      card.status = "ACTIVE";
      return;
    case "RETURN": {
      card.available -= toMinorUnits(r.amount ?? "0", scale);
      postReturn(ctx.runtime.ledger, r, r.amount ?? "0", at);
      return;
    }
    case "TERMINATE": {
      // What is left on the card goes back to the merchant; pending authorizations lose
      // their hold (they can no longer clear on a terminated card).
      releaseHolds(ctx, card, at);
      const rest = card.available > 0n ? card.available : 0n;
      card.status = "TERMINATED";
      r.amount = fromMinorUnits(rest, scale);
      if (rest > 0n) {
        card.available -= rest;
        postReturn(ctx.runtime.ledger, r, r.amount, at);
      }
      return;
    }
  }
}

/** Fails the card's pending authorizations, giving their holds back to the card. */
function releaseHolds(ctx: IssuingContext, card: Card, at: number): void {
  const pending = [...ctx.state.holds.keys()].filter((auth) => auth.card === card);
  for (const auth of pending) failTxn(ctx, auth, at, "Card terminated");
}
