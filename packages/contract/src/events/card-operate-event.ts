/** issuing.cardOperateEvent — a card operation (create, freeze, deposit, return...) changed status. */
// biome-ignore lint/correctness/noUnusedImports: so the .d.ts says JsonNumber, not import("@merchantkit/core").JsonNumber, which the bundled .d.ts loses (scripts/check-pack.ts)
import type { JsonNumber } from "@merchantkit/core";
import type * as c from "../codec";
import { cardOperateRecord } from "../issuing/records";
import { issuingEventOf } from "./envelope";

/**
 * data is the card operation record (operateTime, a query-only field, simply stays absent): the
 * asynchronous outcome of card/operate, card/deposit, card/returnCardBalance and card creation.
 * Read exactly as getOperateRecordList reads it: a push is the service's data, like a query
 * answer, so the limits made for requests (text length, 64-bit id range, plain-decimal amounts)
 * do not refuse it; an amount in exponent form ("1E+2", as Java's BigDecimal writes 100) reads
 * as the same exact decimal string the query gives ("100").
 */
export const cardOperateEventData = cardOperateRecord;

export const cardOperateEvent = issuingEventOf("issuing.cardOperateEvent", cardOperateEventData);
export type CardOperateEvent = c.AppOf<typeof cardOperateEvent>;
