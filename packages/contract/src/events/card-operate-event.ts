/** issuing.cardOperateEvent — a card operation (create, freeze, deposit, return...) changed status. */
// biome-ignore lint/correctness/noUnusedImports: so the .d.ts says JsonNumber, not import("@merchantkit/core").JsonNumber, which the bundled .d.ts loses (scripts/check-pack.ts)
import type { JsonNumber } from "@merchantkit/core";
import * as c from "../codec";
import { cardOperateRecord, operateFee } from "../issuing/records";
import { issuingEventOf } from "./envelope";

// A pushed amount is a plain decimal: the query reads the exponent form too, a push may not.
const amount = c.amountNumber({ sign: "any", plain: true });

/**
 * data is the card operation record (operateTime, a query-only field, simply stays absent): the
 * asynchronous outcome of card/operate, card/deposit, card/returnCardBalance and card creation.
 * Amounts are held to plain decimals; the field limits of issuingEvent hold ids and text.
 */
export const cardOperateEventData = c.extend(cardOperateRecord, {
  amount: c.optional(amount),
  feeList: c.optional(c.array(c.extend(operateFee, { feeAmount: amount }))),
});

export const cardOperateEvent = issuingEventOf("issuing.cardOperateEvent", cardOperateEventData);

export type CardOperateEvent = c.AppOf<typeof cardOperateEvent>;
