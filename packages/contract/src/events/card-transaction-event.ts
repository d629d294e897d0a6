/** issuing.cardTransactionEvent — a card transaction (authorization, clearing, refund...) occurred. */
import * as c from "../codec";
import { cardTransactionRecord } from "../issuing/records";
import { cardIdOrMasked } from "./card-id-or-masked";
import { issuingEventOf } from "./envelope";

/** The card transaction record, except that cardId may be a masked card number here. */
export const cardTransactionEventData = c.extend(cardTransactionRecord, {
  cardId: cardIdOrMasked(),
});

export const cardTransactionEvent = issuingEventOf(
  "issuing.cardTransactionEvent",
  cardTransactionEventData,
);

export type CardTransactionEvent = c.AppOf<typeof cardTransactionEvent>;
