/**
 * When a failed attempt is tried again, and after how long. Every call is a POST, so a retry is
 * only safe when a repeat cannot create a second effect: reads, and writes that carry an
 * idempotency key. Unkeyed writes (beneficiary/add, acct/addPayer) are retried only when the
 * failure proves the request never reached the service.
 */
import { hasErrorMarker } from "../errors/merchantkit-error";

export interface RetrySettings {
  /** Retries after the first attempt; 0 means exactly one attempt. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for; the RateLimitError is thrown instead. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetrySettings = {
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/** Connection failures where the request provably never left: nothing can have happened. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EADDRNOTAVAIL"]);

export interface AttemptFailure {
  error: unknown;
  httpStatus?: number | undefined;
  retryAfterMs?: number | undefined;
}

export function isRetryable(failure: AttemptFailure, safe: boolean): boolean {
  const { error, httpStatus } = failure;
  // 429 means the service refused before doing anything, so even an unkeyed write may repeat.
  if (httpStatus === 429) return true;
  if (hasErrorMarker(error, "ConnectionError")) {
    const code = (error as { code?: string }).code;
    return safe || (code !== undefined && NOT_SENT_CODES.has(code));
  }
  if (!safe) return false;
  if (httpStatus !== undefined && httpStatus >= 500) return true;
  // A 2xx whose body is not JSON is a truncated or mangled transfer, not an answer.
  return (
    hasErrorMarker(error, "ResponseValidationError") &&
    (error as { malformed?: boolean }).malformed === true
  );
}

/** Capped exponential backoff with jitter in [50%, 100%] of the step, so clients spread out. */
export function backoffDelay(
  retry: number,
  settings: RetrySettings,
  random: () => number = Math.random,
): number {
  const step = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** (retry - 1));
  return Math.round(step * (0.5 + random() * 0.5));
}

/** Retry-After as delta-seconds or an HTTP date, in ms from `now`; undefined when absent or bad. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number.parseInt(trimmed, 10) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
