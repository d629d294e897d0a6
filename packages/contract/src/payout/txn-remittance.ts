/** POST {payout_url}/api/v1/txn/remittance — send a payout to an approved beneficiary. */
import * as c from "../codec";
import { contractEndpoint } from "../endpoint";
import { classifyPayoutCode } from "./codes";
import { chargeFlag, feeBearing } from "./enums";
import {
  beneficiaryId,
  currency,
  merchantNo,
  payerId,
  REQUEST_ID_MAX_LENGTH,
  requestAmount,
  requestId,
  text,
} from "./fields";
import { present } from "./local-codecs";
import { payerDetail, transferRecord } from "./records";

export const remittanceRequest = c.withRules(
  c.object({
    merchantNo,
    beneficiaryId,
    /** A payer registered with acct/addPayer; or give payerDetail instead. */
    payerId: c.optional(payerId),
    /** The payer's fields inline, sent as JSON text; or give payerId instead. */
    payerDetail: c.optional(c.jsonText(payerDetail, "payer detail object")),
    /** Debited amount; required when chargeFlag is N (fees come out of it). */
    sourceAmount: c.optional(requestAmount),
    sourceCurrency: currency,
    /** Amount the beneficiary receives in full; required when chargeFlag is Y. */
    targetAmount: c.optional(requestAmount),
    targetCurrency: currency,
    /** The merchant's transaction id and idempotency key (filled by the transport when absent). */
    requestId,
    reference: c.optional(text),
    transactionPurpose: text,
    chargeFlag,
    /** Required when the beneficiary's method is SWIFT: see `remittanceFeeBearingProblem`. */
    feeBearing: c.optional(feeBearing),
  }),
  [
    {
      field: "payerId",
      message: "or payerDetail is required",
      test: (r) => present(r.payerId) || present(r.payerDetail),
    },
    {
      field: "payerDetail",
      message: "must not be sent together with payerId",
      test: (r) => !present(r.payerId) || !present(r.payerDetail),
    },
    {
      field: "sourceAmount",
      message: "is required when chargeFlag is N",
      test: (r) => r.chargeFlag !== "N" || present(r.sourceAmount),
    },
    {
      field: "targetAmount",
      message: "is required when chargeFlag is Y",
      test: (r) => r.chargeFlag !== "Y" || present(r.targetAmount),
    },
  ],
);

/**
 * feeBearing is required for SWIFT, but the method belongs to the beneficiary, not to the
 * request, so no request-level rule can see it. Whoever knows the beneficiary's method (the
 * sandbox always, a client that has read the beneficiary) checks it with this one function.
 */
export function remittanceFeeBearingProblem(
  request: { feeBearing?: string | null | undefined },
  beneficiaryPaymentMethod: string,
): string | undefined {
  return beneficiaryPaymentMethod === "SWIFT" && !present(request.feeBearing)
    ? "feeBearing is required when the beneficiary's paymentMethod is SWIFT"
    : undefined;
}

export const txnRemittance = contractEndpoint({
  name: "payout.txn.remittance",
  summary:
    "Initiate a payout to a beneficiary in PASS or UNNECESSARY; the result comes by txn/query or the payout result notification",
  area: "payout",
  path: "/api/v1/txn/remittance",
  auth: "sign",
  kind: "write",
  idempotencyKey: { field: "requestId", maxLength: REQUEST_ID_MAX_LENGTH },
  merchantNo: true,
  request: remittanceRequest,
  response: transferRecord,
  codes: classifyPayoutCode,
});
