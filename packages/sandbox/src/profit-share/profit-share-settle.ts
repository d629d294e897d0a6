/**
 * A share or return after acceptance: every receiver stays "pending" until
 * config.settleDelayMs has passed on the virtual clock, then finishes "success", or "failed"
 * by the sandbox's deterministic rules: a receiver account "fail" (any case), or, for a
 * return, an account whose original share failed. The operation's state becomes success,
 * failed (all failed) or partial, and the result is pushed to urlCallback or the payment's
 * profitShareNotifyUrl.
 */
import type { Runtime } from "../runtime/area";
import { formatProfitTime, notificationOf } from "./profit-share-result";
import type { ProfitOperation, ProfitShareState, ReceiverEntry } from "./profit-share-state";

function failReason(state: ProfitShareState, op: ProfitOperation, r: ReceiverEntry): string | null {
  if (r.account.toLowerCase() === "fail") {
    return "receiver account cannot accept funds (sandbox rule: account fail)";
  }
  if (op.profitType === "return" && op.parentGatewayReference !== undefined) {
    const share = state.operations.get(op.parentGatewayReference);
    const original = share?.receivers.filter((s) => s.account === r.account) ?? [];
    if (original.length > 0 && original.every((s) => s.result.result === "failed")) {
      return "the original share to this account failed, nothing to return";
    }
  }
  return null;
}

export function finalState(op: ProfitOperation): string {
  const results = op.receivers.map((r) => r.result.result);
  if (results.every((r) => r === "success")) return "success";
  if (results.every((r) => r === "failed")) return "failed";
  return "partial";
}

export function scheduleProfitSettlement(
  runtime: Runtime,
  state: ProfitShareState,
  op: ProfitOperation,
  notifyUrl: string | undefined,
): void {
  const at = op.createdAt + runtime.config.settleDelayMs;
  runtime.scheduler.at(at, () => {
    if (op.state !== "processing") return;
    const finishedAt = formatProfitTime(at);
    for (const r of op.receivers) {
      const reason = failReason(state, op, r);
      r.result.result = reason === null ? "success" : "failed";
      r.result.failReason = reason;
      r.result.finishedAt = finishedAt;
    }
    op.state = finalState(op);
    runtime.outbox.profitShareResult(notificationOf(op), notifyUrl);
  });
}
