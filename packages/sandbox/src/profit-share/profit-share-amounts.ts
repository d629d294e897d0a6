/**
 * The money a payment and a share still hold. A failed receiver moved nothing, so its amount
 * counts neither as shared nor as returned; a pending one counts (it is reserved).
 */
import { addDecimal, subtractDecimal, sumDecimals } from "@merchantkit/core";
import type { ProfitOperation, ProfitShareState } from "./profit-share-state";

function liveReceivers(op: ProfitOperation) {
  return op.receivers.filter((r) => r.result.result !== "failed");
}

/** What the shares of a payment hold now: their receivers minus what returns took back. */
export function sharedOfPayment(state: ProfitShareState, gatewayReference: string): string {
  let total = "0";
  for (const share of state.sharesOf(gatewayReference)) {
    total = addDecimal(total, sumDecimals(liveReceivers(share).map((r) => r.result.amount)));
    for (const back of state.returnsOf(share.profitGatewayReference)) {
      total = subtractDecimal(total, sumDecimals(liveReceivers(back).map((r) => r.result.amount)));
    }
  }
  return total;
}

/** Per receiver account, what a share still holds (received minus returned). */
export function heldByAccount(
  state: ProfitShareState,
  share: ProfitOperation,
): Map<string, string> {
  const held = new Map<string, string>();
  for (const r of liveReceivers(share)) {
    held.set(r.account, addDecimal(held.get(r.account) ?? "0", r.result.amount));
  }
  for (const back of state.returnsOf(share.profitGatewayReference)) {
    for (const r of liveReceivers(back)) {
      held.set(r.account, subtractDecimal(held.get(r.account) ?? "0", r.result.amount));
    }
  }
  return held;
}
