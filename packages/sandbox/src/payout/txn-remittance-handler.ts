/**
 * txn/remittance. The checks run in the order a reader of the codes would expect: the
 * requestId not used yet (40900; repeats of the same request are replayed by the server before
 * this), the beneficiary exists (40400) and is PASS or UNNECESSARY (42200), feeBearing for SWIFT
 * (40000), the payer exists (40401), targetCurrency is the beneficiary's payoutCurrency and the
 * amounts make sense (40000), the balance covers the debit (42202). Accepted: P, the principal
 * debited as PAYOUT and the fee as FEE (both serviceId = payoutId), a notification, and the
 * settlement scheduled.
 */
import {
  type AppOf,
  payableStatuses,
  remittanceFeeBearingProblem,
  type remittanceRequest,
  txnRemittance,
} from "@merchantkit/contract";
import { type AnyHandler, type CallContext, handle } from "../runtime/area";
import { fail } from "../runtime/sandbox-error";
import { atScaleIfExact } from "./decimal-units";
import { accountOf, compact, type PayoutContext } from "./payout-context";
import { notifyPayout, scheduleSettlement } from "./payout-lifecycle";
import { AMOUNT_SCALE, quoteRemittance } from "./payout-pricing";
import type { PayoutEntry, TransferRecord } from "./payout-state";
import { formatPayoutTime } from "./payout-time";

type RemittanceParams = AppOf<typeof remittanceRequest>;

function remit(ctx: PayoutContext, p: RemittanceParams, call: CallContext): TransferRecord {
  const { state, runtime } = ctx;
  if (state.payoutByRequestId(call.merchantNo, p.requestId)) {
    fail("40900", `requestId ${p.requestId} was already used for another payout`);
  }
  const beneficiary = state.beneficiary(call.merchantNo, p.beneficiaryId);
  if (!beneficiary) fail("40400", "beneficiary not found");
  const b = beneficiary.record;
  if (!(payableStatuses as readonly string[]).includes(b.payeeStatus)) {
    fail(
      "42200",
      `beneficiary payeeStatus is ${b.payeeStatus}; a payout needs PASS or UNNECESSARY`,
    );
  }
  const feeProblem = remittanceFeeBearingProblem(p, b.paymentMethod);
  if (feeProblem) fail("40000", feeProblem);
  if (p.payerId !== undefined && !state.payer(call.merchantNo, p.payerId)) {
    fail("40401", "payer not found");
  }
  if (p.targetCurrency !== b.payoutCurrency) {
    fail(
      "40000",
      `targetCurrency must be the beneficiary's payoutCurrency ${b.payoutCurrency}, not ${p.targetCurrency}`,
    );
  }
  // The SDK passes values the service may add later; this service knows only these.
  const chargeFlag: "Y" | "N" =
    p.chargeFlag === "Y"
      ? "Y"
      : p.chargeFlag === "N"
        ? "N"
        : fail("40000", "chargeFlag must be Y or N");
  if (p.feeBearing !== undefined && p.feeBearing !== "OUR" && p.feeBearing !== "SHA") {
    fail("40000", "feeBearing must be OUR or SHA");
  }
  const quote = quoteRemittance({
    chargeFlag,
    sourceAmount: p.sourceAmount,
    targetAmount: p.targetAmount,
    sourceCurrency: p.sourceCurrency,
    targetCurrency: p.targetCurrency,
    paymentMethod: b.paymentMethod,
    feeBearing: p.feeBearing,
  });
  if ("problem" in quote) fail("40000", quote.problem);
  const ledger = accountOf(ctx, call.merchantNo);
  if (!ledger?.covers(p.sourceCurrency, quote.sourceAmount)) {
    const balance = atScaleIfExact(ledger?.balance(p.sourceCurrency) ?? "0", AMOUNT_SCALE);
    fail(
      "42202",
      `insufficient ${p.sourceCurrency} balance: ${balance} available, ${quote.sourceAmount} needed`,
    );
  }

  const payoutId = runtime.ids.next();
  const record: TransferRecord = compact({
    payoutId,
    requestId: p.requestId,
    payoutStatus: "P",
    payoutMethod: b.paymentMethod,
    merchantNo: call.merchantNo,
    beneficiaryId: b.beneficiaryId,
    payerId: p.payerId,
    sourceAmount: quote.sourceAmount,
    sourceCurrency: p.sourceCurrency,
    targetAmount: quote.targetAmount,
    targetCurrency: p.targetCurrency,
    fee: quote.fee,
    feeCurrency: p.sourceCurrency,
    exchangeRate: quote.exchangeRate,
    chargeFlag: p.chargeFlag,
    feeBearing: p.feeBearing,
    reference: p.reference,
    transactionPurpose: p.transactionPurpose,
    createTime: formatPayoutTime(call.now),
  });
  const entry: PayoutEntry = {
    record,
    merchantNo: call.merchantNo,
    createdAt: call.now,
    debit: quote.sourceAmount,
  };
  state.addPayout(entry);
  const posting = {
    serviceId: payoutId,
    currency: p.sourceCurrency,
    externalOrderId: p.requestId,
    at: call.now,
  };
  ledger.debit({
    ...posting,
    amount: quote.principal,
    businessType: "PAYOUT",
    remark: `payout to beneficiary ${b.beneficiaryId}`,
  });
  if (quote.fee !== "0.00") {
    ledger.debit({
      ...posting,
      amount: quote.fee,
      businessType: "FEE",
      remark: "payout fee",
    });
  }
  notifyPayout(ctx, entry);
  scheduleSettlement(ctx, entry, call.now);
  return { ...record };
}

export function remittanceHandlers(ctx: PayoutContext): [string, AnyHandler][] {
  return [handle(txnRemittance, (p, call) => remit(ctx, p, call))];
}
