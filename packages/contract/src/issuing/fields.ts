/** Issuing fields used by several endpoints, with the limits of provider-notes §4. */
// biome-ignore lint/correctness/noUnusedImports: so the .d.ts says JsonNumber, not import("@merchantkit/core").JsonNumber, which the bundled .d.ts loses (scripts/check-pack.ts)
import type { JsonNumber } from "@merchantkit/core";

import type { Rule } from "../codec";
import * as c from "../codec";

/** The idempotency key of issuing writes: at most 64 characters (provider-notes §4). */
export const clientRequestId = c.string({ nonEmpty: true, maxLength: 64 });

/** pageNum ≥ 1 and pageSize 1–100 on every issuing query. */
export const pageNum = c.integer({ min: 1 });
export const pageSize = c.integer({ min: 1, max: 100 });

/** Filled by the transport from the client's configuration on cardholder calls. */
export const issuingMerchantNo = c.string({ nonEmpty: true });

/** Money moved onto or off a card: greater than 0, at most 2 decimal places. */
export const cardAmount = c.amountNumber({ sign: "positive", maxScale: 2 });

/** The optional UTC-seconds bounds of a query's time window, checked by issuingTimeWindowRule. */
export const issuingTimeWindow = {
  startTime: c.optional(c.epochSeconds()),
  endTime: c.optional(c.epochSeconds()),
};

/**
 * startTime ≤ endTime when both are given. Encoding runs after Date → seconds and decoding
 * yields seconds, so both sides compare plain numbers; anything else is left to the field codecs.
 */
export const issuingTimeWindowRule: Rule = {
  field: "endTime",
  message: "must not be before startTime",
  test: ({ startTime, endTime }) =>
    typeof startTime !== "number" || typeof endTime !== "number" || startTime <= endTime,
};

// Cardholder fields (provider-notes §4 lengths). Only firstName, lastName and email are
// required on create; update sends any of them.
const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

export const cardholderFirstName = c.string({ nonEmpty: true, maxLength: 50 });
export const cardholderLastName = c.string({ nonEmpty: true, maxLength: 20 });
export const cardholderEmail = c.string({
  nonEmpty: true,
  maxLength: 100,
  pattern: { regex: EMAIL, message: "must be a valid e-mail address" },
});
/** ISO 3166-1 alpha-2: nationality, addressRegionCode (create), addressCountryCode (update). */
export const cardholderCountryCode = c.string({ minLength: 2, maxLength: 2 });

/** The optional cardholder fields, the same on create and update. */
export const cardholderOptionalFields = {
  mobile: c.optional(c.string({ maxLength: 20 })),
  mobileAreaCode: c.optional(c.string({ maxLength: 10 })),
  birthDay: c.optional(c.calendarString("date")),
  nationality: c.optional(cardholderCountryCode),
  addressStateCode: c.optional(c.string({ maxLength: 50 })),
  addressCityCode: c.optional(c.string({ maxLength: 50 })),
  addressDetailLine1: c.optional(c.string({ maxLength: 200 })),
  addressDetailLine2: c.optional(c.string({ maxLength: 200 })),
  addressPostalCode: c.optional(c.string({ maxLength: 20 })),
  remark: c.optional(c.string({ maxLength: 200 })),
};
