/** Profit-share request fields shared by share, return and query, plus a local null codec. */
import * as v from "valibot";
import * as c from "../codec";
import { type AnyCodec, type AppOf, type Codec, codec, type WireOf } from "../codec/codec";

/** The merchant submitting; the transport fills it from the client's configuration. */
export const profitShareMerchantNo = c.string({ nonEmpty: true });

/** Three-letter ISO 4217 code. */
export const profitShareCurrency = c.string({
  pattern: { regex: /^[A-Z]{3}$/, message: "must be a three-letter ISO 4217 code such as USD" },
});

/**
 * profitReference: the merchant's idempotency key, unique across shares and reversals. No length
 * is documented; 64 matches the other areas' keys and holds a generated UUID (ASSUMPTIONS.md).
 */
export const PROFIT_REFERENCE_MAX_LENGTH = 64;
export const profitReferenceText = c.string({
  nonEmpty: true,
  maxLength: PROFIT_REFERENCE_MAX_LENGTH,
});

/**
 * A service-side order number (the payment's transactionId, a profit share's gateway
 * reference): a 64-bit id as digits (provider-notes §6), which requests are held to.
 */
export const profitGatewayReferenceText = c.string({ nonEmpty: true, format: "int64" });

/** Longest urlCallback sent (none documented; URLs are longer than other fields). */
export const URL_CALLBACK_MAX_LENGTH = 2048;

/** Where the result notification goes; required by the service only when the payment has none. */
export const profitShareUrlCallback = c.string({
  maxLength: URL_CALLBACK_MAX_LENGTH,
  pattern: { regex: /^https?:\/\/\S+$/, message: "must be an http(s) URL" },
});

/** "YYYY-MM-DD HH:mm:ss", the time format of receiver results. */
export const profitShareDateTime = c.string({
  pattern: {
    regex: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/,
    message: "must be a time as YYYY-MM-DD HH:mm:ss",
  },
});

/**
 * Local codec: a field the service sends as null when it has no value (failReason, finishedAt).
 * Reading, an absent key counts as null too; writing, null is sent, as the contract shows.
 */
export function nullWhenAbsent<C extends AnyCodec>(
  inner: C,
): Codec<AppOf<C> | null, WireOf<C> | null> {
  return codec(
    v.optional(v.nullable(inner.decode), null) as v.GenericSchema<unknown, AppOf<C> | null>,
    v.nullable(inner.encode) as v.GenericSchema<AppOf<C> | null, WireOf<C> | null>,
    { anyOf: [inner.wire, { type: "null" }] },
  );
}
