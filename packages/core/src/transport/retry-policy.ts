/**
 * When a failed attempt is tried again, and after how long, as ky retry options. Every call is
 * a POST, so a retry is only safe when a repeat cannot create a second effect: reads, and writes
 * that carry an idempotency key. Unkeyed writes (beneficiary/add, acct/addPayer) are retried only
 * when the failure proves the request never reached the service.
 *
 * ky owns the loop (limit, status codes, Retry-After, backoff limit, jitter); `isRetryable` is
 * its `shouldRetry`, answering "no" or "let ky's rules decide", so both must agree on what is
 * retried: the status codes below are exactly the ones isRetryable can let through.
 */
import type { RetryOptions } from "ky";
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

/** 429 and every 5xx; ky's default list also has 408 and 413, which this service never means as "try again". */
const RETRY_STATUS_CODES = [429, ...Array.from({ length: 100 }, (_, i) => 500 + i)];
/** Where the service's Retry-After is waited for (bounded by maxRetryAfterMs). */
const RETRY_AFTER_STATUS_CODES = [429, 503];

/**
 * The ky retry options every call shares; a call adds its own `limit`, `shouldRetry` (which knows
 * whether the call is safe) and `jitter` (which records the delay for the retry event).
 */
export function kyRetryOptions(settings: RetrySettings): RetryOptions {
  return {
    limit: settings.maxRetries,
    // Every endpoint is a POST; whether this POST may repeat is shouldRetry's answer.
    methods: ["post"],
    statusCodes: RETRY_STATUS_CODES,
    afterStatusCodes: RETRY_AFTER_STATUS_CODES,
    maxRetryAfter: settings.maxRetryAfterMs,
    backoffLimit: settings.maxDelayMs,
    delay: (retry) => Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** (retry - 1)),
    // Timeouts are ConnectionErrors like any other: retried when the call is safe.
    retryOnTimeout: true,
  };
}

/** Jitter in [50%, 100%] of the backoff step, so clients that failed together spread out. */
export function jitter(delayMs: number, random: () => number = Math.random): number {
  return Math.round(delayMs * (0.5 + random() * 0.5));
}

/** Connection failures where the request provably never left: nothing can have happened. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EADDRNOTAVAIL"]);

export interface AttemptFailure {
  error: unknown;
  httpStatus?: number | undefined;
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

/** The headers ky reads a wait from, in ky's order (Retry-After first). */
const WAIT_HEADERS = [
  "retry-after",
  "ratelimit-reset",
  "x-ratelimit-retry-after",
  "x-ratelimit-reset",
  "x-rate-limit-reset",
];
/** ky reads a number this large (in ms) as a Unix time rather than a delay. */
const TIMESTAMP_FROM = Date.parse("2024-01-01");

/**
 * A wait header's value in ms from `now`, read as ky 1.14 reads the one it waits for (seconds,
 * a Unix time in seconds, or an HTTP date); negative for a time already past, undefined when
 * absent or unreadable (`abc`, blank). Core's only reading of Retry-After: the error's
 * retryAfterSeconds and the retry decision must name the wait ky takes, not a second opinion of it.
 */
export function waitMs(value: string | null | undefined, now: number): number | undefined {
  // Number("") is 0, as is Number("  "): a blank value says no wait, whatever ky makes of it.
  if (!value || value.trim() === "") return undefined;
  let after = Number(value) * 1000;
  if (Number.isNaN(after)) after = Date.parse(value) - now;
  else if (after >= TIMESTAMP_FROM) after -= now;
  return Number.isNaN(after) ? undefined : after;
}

/**
 * Retry-After in ms from `now`, for the error to show: a time already past is no wait (0), and
 * "Infinity" (which ky would cap) is no wait a caller can schedule, so undefined like a bad value.
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  const after = waitMs(value, now);
  return after === undefined || !Number.isFinite(after) ? undefined : Math.max(0, after);
}

/**
 * The wait header ky takes its wait from before retrying an answer with `status`: the first of
 * WAIT_HEADERS present (an empty one included, as ky's `??` takes it), on the statuses ky reads
 * one for; undefined where ky backs off instead (none present, or the one present empty). ky
 * waits what it reads there, and its whole maxRetryAfter for a value it cannot read, so
 * shouldRetry reads it too (waitMs): to refuse a wait longer than the cap, to back off instead
 * where the value is unreadable or past, and to name the wait in the retry event.
 */
export function waitHeader(status: number, headers: Headers): string | undefined {
  if (!RETRY_AFTER_STATUS_CODES.includes(status)) return undefined;
  for (const name of WAIT_HEADERS) {
    const value = headers.get(name);
    if (value !== null) return value || undefined;
  }
  return undefined;
}
