/** Profit-share records: the receivers of a request and the result of a share or a reversal. */
import * as c from "../codec";
import { nullWhenAbsent, profitShareDateTime } from "./fields";

/** One receiver of a share or a reversal (an entry of the JSON-encoded `receivers`). */
export const profitShareReceiver = c.object({
  profitDetailReference: c.string({ nonEmpty: true }),
  /** Receiver type: values not documented, so any non-empty string. */
  type: c.string({ nonEmpty: true }),
  account: c.string({ nonEmpty: true }),
  amount: c.amountString({ sign: "positive", maxScale: 2 }),
  description: c.optional(c.string()),
});

/** `receivers` of a request: a JSON-encoded array of at least one receiver. */
export const profitShareReceivers = c.jsonText(
  c.array(profitShareReceiver, { minItems: 1 }),
  "array of receivers",
);

/** Overall state: "processing" is seen; the final values are our design. */
export const profitShareState = c.openEnum(["processing", "success", "failed", "partial"]);

/** A receiver's result: "pending" is seen; the final values are our design. */
export const profitShareReceiverResultState = c.openEnum(["pending", "success", "failed"]);

/** One receiver's result (an entry of the JSON-encoded `receivers` of a result). */
export const profitShareReceiverResult = c.object({
  profitDetailReference: c.string(),
  profitDetailGatewayReference: c.string(),
  type: c.string(),
  amount: c.amountString(),
  result: profitShareReceiverResultState,
  failReason: nullWhenAbsent(c.string()),
  createdAt: profitShareDateTime,
  finishedAt: nullWhenAbsent(profitShareDateTime),
});

/** profitType as the service reports it; read openly so a new operation never breaks parsing. */
export const profitShareResultType = c.openEnum(["share", "return"]);

/** Result `data` of /profit/share and /profit/query (contract "Profit share and reversal"). */
export const profitShareResult = c.object({
  profitType: profitShareResultType,
  profitReference: c.string(),
  profitGatewayReference: c.string(),
  state: profitShareState,
  currency: c.string(),
  receivers: c.jsonText(c.array(profitShareReceiverResult), "array of receiver results"),
  /** SHA-256 sign of the response (provider-notes §1 rule); verified by the caller if wanted. */
  sign: c.optional(c.string()),
});
