/**
 * The profit-share result notification pushed to urlCallback (or the payment's
 * profitShareNotifyUrl). Not shown in the contract: designed as the result data plus merchantNo
 * and a sign (ASSUMPTIONS.md). Read loosely: new fields pass through, and they take part in the
 * SHA-256 sign (all fields except sign), which is verified elsewhere over the raw fields.
 */
import * as c from "../codec";
import { profitShareResult } from "./records";

export const profitShareResultNotification = c.extend(profitShareResult, {
  merchantNo: c.string({ nonEmpty: true }),
  /** Every notification is signed; one without a sign cannot be trusted. */
  sign: c.string({ nonEmpty: true }),
});
