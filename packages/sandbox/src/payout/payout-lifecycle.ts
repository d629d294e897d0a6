/**
 * A payout after acceptance: P until config.settleDelayMs has passed on the virtual clock, then
 * S, or F by the sandbox's deterministic rule (reference "fail", any case, or a targetAmount
 * whose cents are .13). F refunds the whole debit (principal + fee) with one PAYOUT_REFUND
 * credit. Every status, the first P included, is pushed as a payout result notification.
 */
import { accountOf, compact, type PayoutContext } from "./payout-context";
import type { PayoutEntry } from "./payout-state";
import { formatPayoutTime } from "./payout-time";

export type SettleOutcome = { status: "S" } | { status: "F"; errorCode: string; errorMsg: string };

const notificationStatus = { P: "processing", S: "success", F: "failure" } as const;

/** The outcome the simulated bank reaches for this payout. */
export function settleOutcome(entry: PayoutEntry): SettleOutcome {
  const { record } = entry;
  if (record.reference?.toLowerCase() === "fail") {
    return {
      status: "F",
      errorCode: "PAYOUT_REJECTED",
      errorMsg: "the beneficiary's bank rejected the transfer (sandbox rule: reference fail)",
    };
  }
  if (record.targetAmount?.endsWith(".13")) {
    return {
      status: "F",
      errorCode: "ACCOUNT_CLOSED",
      errorMsg: "the beneficiary's account is closed (sandbox rule: targetAmount ending in .13)",
    };
  }
  return { status: "S" };
}

/** Schedules the settlement of a payout accepted at `from`. */
export function scheduleSettlement(ctx: PayoutContext, entry: PayoutEntry, from: number): void {
  const at = from + ctx.runtime.config.settleDelayMs;
  ctx.runtime.scheduler.at(at, () => {
    settle(ctx, entry, settleOutcome(entry), at);
  });
}

/** Moves a P payout to its final status at `at`; false when it was already final. */
export function settle(
  ctx: PayoutContext,
  entry: PayoutEntry,
  outcome: SettleOutcome,
  at: number,
): boolean {
  const { record } = entry;
  if (record.payoutStatus !== "P") return false;
  record.payoutStatus = outcome.status;
  record.finishTime = formatPayoutTime(at);
  if (outcome.status === "F") {
    record.errorCode = outcome.errorCode;
    record.errorMsg = outcome.errorMsg;
    accountOf(ctx, entry.merchantNo)?.credit({
      serviceId: record.payoutId,
      currency: entry.record.sourceCurrency ?? "",
      amount: entry.debit,
      businessType: "PAYOUT_REFUND",
      externalOrderId: record.requestId,
      remark: `payout failed: ${outcome.errorCode}`,
      at,
    });
  }
  notifyPayout(ctx, entry);
  return true;
}

/** Pushes the payout's current status (app form, unsigned: the pusher signs it). */
export function notifyPayout(ctx: PayoutContext, entry: PayoutEntry): void {
  const r = entry.record;
  const status = r.payoutStatus as keyof typeof notificationStatus;
  ctx.runtime.outbox.payoutResult(
    compact({
      merchantNo: entry.merchantNo,
      payoutId: r.payoutId,
      requestId: r.requestId,
      payoutStatus: r.payoutStatus,
      status: notificationStatus[status],
      errorCode: r.errorCode,
      errorMsg: r.errorMsg,
      beneficiaryId: r.beneficiaryId,
      sourceAmount: r.sourceAmount,
      sourceCurrency: r.sourceCurrency,
      targetAmount: r.targetAmount,
      targetCurrency: r.targetCurrency,
      fee: r.fee,
      feeCurrency: r.feeCurrency,
      finishTime: r.finishTime,
    }),
  );
}
