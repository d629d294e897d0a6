/**
 * The payout result notification pushed to the merchant (our design: the contract shows only a
 * status success/failure/processing and an optional error code and description). Its `sign`
 * is checked with the SHA-256 rule of provider-notes §1 over every other field, known or not,
 * so the codec reads loosely and keeps unknown fields.
 */
import * as v from "valibot";
import * as c from "../codec";
import { payoutNotificationStatus, payoutStatus } from "./enums";
import { beneficiaryId, payoutId, responseAmount, responseTime } from "./fields";
import { present } from "./local-codecs";

/** The notification's status wording → payoutStatus letter. */
export const payoutStatusOfNotificationStatus = {
  success: "S",
  failure: "F",
  processing: "P",
} as const;

/**
 * The letter a status wording stands for, in any case ("FAILURE" is how an enum's name prints);
 * undefined for a wording this SDK does not know.
 */
function letterOf(status: unknown): "S" | "F" | "P" | undefined {
  if (typeof status !== "string") return undefined;
  const word = status.toLowerCase();
  return Object.hasOwn(payoutStatusOfNotificationStatus, word)
    ? payoutStatusOfNotificationStatus[word as keyof typeof payoutStatusOfNotificationStatus]
    : undefined;
}

const checked = c.withRules(
  c.object({
    merchantNo: c.string(),
    payoutId,
    /** The merchant's id of the payout (read leniently as a number too). */
    requestId: c.idText(),
    /** P, S or F, as in txn/query; filled from `status` when only the wording is sent. */
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
    {
      // Two answers to "did it pay?" that disagree: which one a merchant's code reads would
      // decide whether it refunds, so the notification is refused rather than guessed at.
      field: "payoutStatus",
      message: "must agree with status (success → S, failure → F, processing → P)",
      test: (n) => {
        const letter = letterOf(n.status);
        return letter === undefined || !present(n.payoutStatus) || n.payoutStatus === letter;
      },
    },
  ],
);

/** A decoded notification with payoutStatus filled from the status wording when it is absent. */
function withPayoutStatus<T extends { payoutStatus?: unknown; status?: unknown }>(n: T): T {
  if (present(n.payoutStatus)) return n;
  const letter = letterOf(n.status);
  return letter === undefined ? n : { ...n, payoutStatus: letter };
}

const readChecked = c.decodePath(checked);

/**
 * The payout result notification. Reading fills payoutStatus from the contract's wording
 * (success → S, failure → F, processing → P) when only `status` is sent, and refuses one whose
 * two fields contradict (payoutStatus "S" with status "failure"); a wording this SDK does not
 * know yet is kept in `status` and leaves payoutStatus absent. Writing sends the fields as given.
 */
export const payoutResultNotification = c.codec(
  v.pipe(checked.decode, v.transform(withPayoutStatus)),
  checked.encode,
  checked.wire,
  {
    decode: (input, owned) => {
      const value = readChecked(input, owned);
      return value === c.MISS ? c.MISS : withPayoutStatus(value as Record<string, unknown>);
    },
    encode: c.encodePath(checked),
  },
);

/** The notification fields left out of its signature (beyond the empty ones). */
export const payoutResultNotificationUnsignedFields = ["sign"] as const;
