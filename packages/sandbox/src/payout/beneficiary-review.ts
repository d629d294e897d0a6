/**
 * The beneficiary review on the virtual clock: WAITING, then PROCESS halfway through
 * config.reviewDelayMs, then PASS, or REJECT by the sandbox's deterministic rule
 * (receiverInfo.lastName "REJECT", any case, or a merchantRefId starting with "reject-").
 * Every (re)start bumps the beneficiary's generation, so a review scheduled before an edit or a
 * forced outcome does nothing when its time comes.
 */
import type { PayoutContext } from "./payout-context";
import type { BeneficiaryEntry } from "./payout-state";
import { formatPayoutTime } from "./payout-time";

export type ReviewOutcome = { status: "PASS" } | { status: "REJECT"; reason: string };

/** The outcome the sandbox's reviewer reaches for this beneficiary. */
export function reviewOutcome(entry: BeneficiaryEntry): ReviewOutcome {
  const { record } = entry;
  const lastName = (record.receiverInfo as Record<string, unknown> | undefined)?.lastName;
  if (typeof lastName === "string" && lastName.toUpperCase() === "REJECT") {
    return {
      status: "REJECT",
      reason: "receiver failed screening (sandbox rule: lastName REJECT)",
    };
  }
  if (record.merchantRefId?.startsWith("reject-")) {
    return {
      status: "REJECT",
      reason: "receiver failed screening (sandbox rule: merchantRefId reject-*)",
    };
  }
  return { status: "PASS" };
}

/** Puts the beneficiary into review from `from` (virtual ms) and schedules its steps. */
export function startReview(ctx: PayoutContext, entry: BeneficiaryEntry, from: number): void {
  const generation = ++entry.reviewGeneration;
  entry.record.payeeStatus = "WAITING";
  delete entry.record.rejectReason;
  const delay = ctx.runtime.config.reviewDelayMs;
  const current = () => entry.reviewGeneration === generation;
  const halfway = from + Math.floor(delay / 2);
  ctx.runtime.scheduler.at(halfway, () => {
    if (!current()) return;
    entry.record.payeeStatus = "PROCESS";
    entry.record.updateTime = formatPayoutTime(halfway);
  });
  const end = from + delay;
  ctx.runtime.scheduler.at(end, () => {
    if (!current()) return;
    finishReview(entry, reviewOutcome(entry), end);
  });
}

/** Ends any review now with `outcome` (admin), cancelling the scheduled steps. */
export function forceReview(entry: BeneficiaryEntry, outcome: ReviewOutcome, at: number): void {
  entry.reviewGeneration++;
  finishReview(entry, outcome, at);
}

/** Leaves review for good (UNNECESSARY routes), cancelling any scheduled step. */
export function skipReview(entry: BeneficiaryEntry): void {
  entry.reviewGeneration++;
  entry.record.payeeStatus = "UNNECESSARY";
  delete entry.record.rejectReason;
}

function finishReview(entry: BeneficiaryEntry, outcome: ReviewOutcome, at: number): void {
  entry.record.payeeStatus = outcome.status;
  if (outcome.status === "REJECT") entry.record.rejectReason = outcome.reason;
  else delete entry.record.rejectReason;
  entry.record.updateTime = formatPayoutTime(at);
}
