/** issuing.cardOperateEvent — a card operation (create, freeze, deposit, return...) changed status. */
import type { AppOf } from "../codec";
import { cardOperateRecord } from "../issuing/records";
import { issuingEventOf } from "./envelope";

/**
 * data is the card operation record (operateTime, a query-only field, simply stays absent): the
 * asynchronous outcome of card/operate, card/deposit, card/returnCardBalance and card creation.
 */
export const cardOperateEvent = issuingEventOf("issuing.cardOperateEvent", cardOperateRecord);

export type CardOperateEvent = AppOf<typeof cardOperateEvent>;
