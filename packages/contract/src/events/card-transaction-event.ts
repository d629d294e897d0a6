/** issuing.cardTransactionEvent — a card transaction (authorization, clearing, refund...) occurred. */
// biome-ignore lint/correctness/noUnusedImports: so the .d.ts says JsonNumber, not import("@merchantkit/core").JsonNumber, which the bundled .d.ts loses (scripts/check-pack.ts)
import type { JsonNumber } from "@merchantkit/core";
import * as c from "../codec";
import { cardTransactionRecord } from "../issuing/records";
import { cardIdOrMasked } from "./card-id-or-masked";
import { issuingEventOf } from "./envelope";

/**
 * The card transaction record as queryTxnList reads it, except that cardId may be a masked card
 * number here. A push is the service's data, like a query answer: the limits made for requests
 * (text length, 64-bit id range, plain-decimal amounts) do not refuse it, or a signed push would
 * be answered 400, retried and dropped while the query still reads the same record. An amount
 * in exponent form ("1E+2", as Java's BigDecimal writes 100) reads as the same exact decimal
 * string the query gives ("100"). The shape still holds: a cardId that is neither an id nor a
 * masked number, an unknown txnStatus or an empty txnOrderNo is refused.
 */
export const cardTransactionEventData = c.extend(cardTransactionRecord, {
  cardId: cardIdOrMasked(),
});

export const cardTransactionEvent = issuingEventOf(
  "issuing.cardTransactionEvent",
  cardTransactionEventData,
);

export type CardTransactionEvent = c.AppOf<typeof cardTransactionEvent>;
