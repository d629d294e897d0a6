/** The account area's x-timestamp header rule: 10-digit seconds or 13-digit ms, ±10 minutes. */

/** How far x-timestamp may be from the server's clock, either way (inclusive). */
export const ACCOUNT_TIMESTAMP_SKEW_MS = 10 * 60 * 1000;

const SECONDS = /^\d{10}$/;
const MILLIS = /^\d{13}$/;

/**
 * True when `header` is an acceptable x-timestamp at `nowMs`: exactly 10 digits (epoch
 * seconds) or 13 digits (epoch milliseconds), and no more than 10 minutes from `nowMs`.
 */
export function isValidAccountTimestamp(header: string, nowMs: number): boolean {
  let ms: number;
  if (SECONDS.test(header)) ms = Number(header) * 1000;
  else if (MILLIS.test(header)) ms = Number(header);
  else return false;
  return Math.abs(ms - nowMs) <= ACCOUNT_TIMESTAMP_SKEW_MS;
}
