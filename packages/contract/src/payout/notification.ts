/**
 * The payout result notification pushed to the merchant (our design: the contract shows only a
 * status success/failure/processing and an optional error code and description). Its `sign`
 * is checked with the SHA-256 rule of provider-notes §1 over every other field, known or not,
 * so the codec reads loosely and keeps unknown fields.
 */
import * as c from "../codec";
import { payoutNotificationStatus, payoutStatus } from "./enums";
import { beneficiaryId, payoutId, responseAmount, responseTime } from "./fields";
import { present } from "./local-codecs";

export const payoutResultNotification = c.withRules(
  c.object({
    merchantNo: c.string(),
    payoutId,
    /** The merchant's id of the payout (read leniently as a number too). */
    requestId: c.idText(),
    /** P, S or F, as in txn/query. */
    payoutStatus: c.optional(payoutStatus),
    /** The contract's wording: success, failure or processing. */
    status: c.optional(payoutNotificationStatus),
    errorCode: c.optional(c.string()),
    errorMsg: c.optional(c.string()),
    beneficiaryId: c.optional(beneficiaryId),
    sourceAmount: c.optional(responseAmount),
    sourceCurrency: c.optional(c.string()),
    targetAmount: c.optional(responseAmount),
    targetCurrency: c.optional(c.string()),
    fee: c.optional(responseAmount),
    feeCurrency: c.optional(c.string()),
    finishTime: c.optional(responseTime),
    sign: c.string({ nonEmpty: true }),
  }),
  [
    {
      field: "payoutStatus",
      message: "or status is required",
      test: (n) => present(n.payoutStatus) || present(n.status),
    },
  ],
);

/** The notification's status wording → payoutStatus letter. */
export const payoutStatusOfNotificationStatus = {
  success: "S",
  failure: "F",
  processing: "P",
} as const;

/** The notification fields left out of its signature (beyond the empty ones). */
export const payoutResultNotificationUnsignedFields = ["sign"] as const;
