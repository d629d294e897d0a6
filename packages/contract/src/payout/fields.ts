/** Payout fields used by several endpoints, with their limits (provider-notes §2). */
import * as c from "../codec";

/** Filled by the transport from the client's configuration; required on the wire. */
export const merchantNo = c.string({ nonEmpty: true });

/** The merchant's transaction id and the remittance idempotency key: at most 32 characters. */
export const requestId = c.string({ nonEmpty: true, maxLength: 32 });
export const REQUEST_ID_MAX_LENGTH = 32;

/**
 * Ids the service assigns. The contract shows them as strings; they are 64-bit ids
 * (provider-notes §6): requests send them as canonical digits within that range, reading
 * accepts a JSON number too and keeps every digit.
 */
export const beneficiaryId = c.idText({ int64: true });
export const payoutId = c.idText({ int64: true });
export const payerId = c.idText({ int64: true });

/** ISO 4217 code in capitals, as the samples show (strict going out). */
export const currency = c.string({
  pattern: { regex: /^[A-Z]{3}$/, message: "must be a three-letter ISO 4217 code such as USD" },
});

/** Two-letter country code in capitals, as the samples show (strict going out). */
export const country = c.string({
  pattern: { regex: /^[A-Z]{2}$/, message: "must be a two-letter country code such as SG" },
});

/** Amount of a payout request: decimal string, greater than 0, at most 2 decimals. */
export const requestAmount = c.amountString({ maxScale: 2, sign: "positive" });

/** Amount in a response or notification: any decimal the service sends, digit for digit. */
export const responseAmount = c.amountString();

/** "YYYY-MM-DD" date of the payer fields (the format the samples show), one that exists. */
export const date = c.calendarString("date");

/** "YYYY-MM-DD HH:mm:ss" time of the transfer list filters, one that exists. */
export const dateTime = c.calendarString("dateTime");

/** A time in a response: "YYYY-MM-DD HH:mm:ss" by design, read without a format check. */
export const responseTime = c.string();

/** Payout paging: page number from 1, page size from 1 (no upper limit is documented). */
export const current = c.integer({ min: 1 });
export const size = c.integer({ min: 1 });

/** A non-empty request string (the signature drops "" values, so "" would mean absent). */
export const text = c.string({ nonEmpty: true });
