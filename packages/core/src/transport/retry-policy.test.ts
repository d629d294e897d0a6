import { describe, expect, it } from "vitest";
import { ServerError } from "../errors/api-error";
import { ConnectionError, ResponseValidationError } from "../errors/local-errors";
import {
  DEFAULT_RETRY,
  isRetryable,
  jitter,
  kyRetryOptions,
  parseRetryAfter,
  waitHeader,
  waitMs,
} from "./retry-policy";

describe("retry policy", () => {
  const server = new ServerError({ message: "x", httpStatus: 503 });

  it("retries 5xx, timeouts and resets only where a repeat is safe", () => {
    expect(isRetryable({ error: server, httpStatus: 503 }, true)).toBe(true);
    expect(isRetryable({ error: server, httpStatus: 503 }, false)).toBe(false);
    const reset = new ConnectionError("x", { code: "ECONNRESET" });
    expect(isRetryable({ error: reset }, true)).toBe(true);
    expect(isRetryable({ error: reset }, false)).toBe(false);
  });

  it("retries even unkeyed writes when the request provably never left or was refused with 429", () => {
    expect(isRetryable({ error: new ConnectionError("x", { code: "ECONNREFUSED" }) }, false)).toBe(
      true,
    );
    expect(isRetryable({ error: server, httpStatus: 429 }, false)).toBe(true);
  });

  it("retries a malformed body but not a well-formed body of the wrong shape", () => {
    expect(
      isRetryable(
        { error: new ResponseValidationError([], { malformed: true }), httpStatus: 200 },
        true,
      ),
    ).toBe(true);
    expect(isRetryable({ error: new ResponseValidationError([]), httpStatus: 200 }, true)).toBe(
      false,
    );
  });

  it("backs off exponentially with jitter, capped (ky's delay, jitter and backoffLimit)", () => {
    const options = kyRetryOptions({ ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 });
    const delay = options.delay as (retry: number) => number;
    expect(jitter(delay(1), () => 1)).toBe(100);
    expect(jitter(delay(1), () => 0)).toBe(50);
    expect(jitter(delay(3), () => 1)).toBe(400);
    expect(jitter(delay(10), () => 1)).toBe(1000);
    expect(options.backoffLimit).toBe(1000);
  });

  it("lets ky retry only POSTs on 429 and 5xx, honouring Retry-After on 429 and 503", () => {
    const options = kyRetryOptions(DEFAULT_RETRY);
    expect(options.methods).toEqual(["post"]);
    expect(options.statusCodes).toEqual(expect.arrayContaining([429, 500, 502, 503, 504, 599]));
    expect(options.statusCodes).not.toEqual(expect.arrayContaining([408]));
    expect(options.statusCodes).not.toEqual(expect.arrayContaining([413]));
    expect(options.afterStatusCodes).toEqual([429, 503]);
    expect(options.maxRetryAfter).toBe(DEFAULT_RETRY.maxRetryAfterMs);
    expect(options.limit).toBe(DEFAULT_RETRY.maxRetries);
  });

  it("parses Retry-After as seconds or a date", () => {
    expect(parseRetryAfter("3", 0)).toBe(3000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(parseRetryAfter("soon", 0)).toBeUndefined();
    expect(parseRetryAfter(null, 0)).toBeUndefined();
  });

  it("reads the wait as ky does: Retry-After first, then the rate-limit headers, on 429 and 503 only", () => {
    const now = Date.parse("2026-11-24T00:00:00Z");
    const wait = (status: number, init: Record<string, string>) =>
      waitMs(waitHeader(status, new Headers(init)), now);
    expect(wait(429, { "retry-after": "3" })).toBe(3000);
    expect(wait(503, { "retry-after": new Date(now + 5000).toUTCString() })).toBe(5000);
    expect(wait(429, { "x-ratelimit-reset": String(now / 1000 + 90) })).toBe(90_000);
    expect(wait(429, { "ratelimit-reset": "7", "x-ratelimit-reset": "1" })).toBe(7000);
    expect(waitHeader(500, new Headers({ "retry-after": "3" }))).toBeUndefined();
    expect(waitHeader(429, new Headers({}))).toBeUndefined();
    // ky takes the first header present, an empty one too (and then backs off).
    expect(waitHeader(429, new Headers({ "retry-after": "", "ratelimit-reset": "7" }))).toBe(
      undefined,
    );
    // Present but no wait: ky would wait its whole cap; the transport backs off instead.
    expect(waitHeader(429, new Headers({ "retry-after": "soon" }))).toBe("soon");
    for (const value of ["soon", "abc", "  "]) expect(waitMs(value, now)).toBeUndefined();
  });

  it("reads a Retry-After value for the error as it reads it for ky's wait", () => {
    const now = Date.parse("2026-11-24T00:00:00Z");
    for (const value of ["1.5", "0", String(now / 1000 + 90), new Date(now + 5000).toUTCString()]) {
      expect(parseRetryAfter(value, now)).toBe(waitMs(value, now));
    }
    expect(parseRetryAfter("-5", now)).toBe(0);
    expect(parseRetryAfter("", now)).toBeUndefined();
    expect(parseRetryAfter("Infinity", now)).toBeUndefined();
  });
});
