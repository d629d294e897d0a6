/** issuing.cardTransactionEvent — a card transaction (authorization, clearing, refund...) occurred. */
// biome-ignore lint/correctness/noUnusedImports: so the .d.ts says JsonNumber, not import("@merchantkit/core").JsonNumber, which the bundled .d.ts loses (scripts/check-pack.ts)
import type { JsonNumber } from "@merchantkit/core";
import * as c from "../codec";
import { cardTransactionRecord } from "../issuing/records";
import { cardIdOrMasked } from "./card-id-or-masked";
import { issuingEventOf } from "./envelope";

// A pushed amount is a plain decimal: the query reads the exponent form too, a push may not.
const amount = c.optional(c.amountNumber({ sign: "any", plain: true }));
// Documented at most 64 characters (the 3DS query filter on txnOrderNo).
const orderNo = c.string({ nonEmpty: true, maxLength: 64 });

/**
 * The card transaction record, except that cardId may be a masked card number here, and held
 * tighter than a query result: order numbers within their documented 64 characters, amounts
 * plain decimals (the field limits of issuingEvent then hold ids to 64 bits and other text to
 * REQUEST_TEXT_MAX_LENGTH).
 */
export const cardTransactionEventData = c.extend(cardTransactionRecord, {
  cardId: cardIdOrMasked(),
  txnOrderNo: orderNo,
  originTxnOrderNo: c.optional(orderNo),
  originTxnOrderNoForRefund: c.optional(orderNo),
  transactionAmount: amount,
  cardAmount: amount,
  settleAmount: amount,
  transactionFee: amount,
  crossBorderFee: amount,
  exchangeFee: amount,
});

export const cardTransactionEvent = issuingEventOf(
  "issuing.cardTransactionEvent",
  cardTransactionEventData,
);

export type CardTransactionEvent = c.AppOf<typeof cardTransactionEvent>;
