import { describe, expect, it, vi } from "vitest";
import {
  isConnectionError,
  isRequestValidationError,
  isTimeoutError,
  isWaitTimeoutError,
} from "../errors/local-errors";
import { isMerchantkitError } from "../errors/merchantkit-error";
import { waitUntilFinal } from "./wait-until-final";

/** A record that never becomes final, counting its reads. */
function pending() {
  const spec = {
    reads: 0,
    read: async () => {
      spec.reads++;
      return { state: "processing" };
    },
    state: (r: { state: string }) => r.state,
    isFinal: () => false,
    what: "payout p-1",
    path: "/api/v1/txn/query",
  };
  return spec;
}

describe("waitUntilFinal", () => {
  it("refuses an unusable option before any read, naming it", async () => {
    // NaN, e.g. Number(process.env.WAIT_MS) unset: a deadline never reached, and a pause of
    // setTimeout's 1 ms, i.e. the service read in a tight loop.
    for (const [name, value] of [
      ["timeoutMs", Number.NaN],
      ["timeoutMs", -1],
      ["intervalMs", Number.NaN],
      ["intervalMs", 0],
      ["maxIntervalMs", Number.POSITIVE_INFINITY],
      // Past setTimeout's 2^31 - 1 ms the timer fires at once: a WaitTimeoutError right away.
      ["timeoutMs", 3_000_000_000],
    ] as const) {
      const spec = pending();
      const error = await waitUntilFinal(spec, { [name]: value }).catch((e: unknown) => e);
      expect(isRequestValidationError(error)).toBe(true);
      expect((error as { field?: string }).field).toBe(name);
      expect(spec.reads).toBe(0);
    }
  });

  it("pauses between reads and ends with a WaitTimeoutError naming the state last seen", async () => {
    // On a fake clock, so the count does not depend on the machine's load.
    vi.useFakeTimers();
    try {
      const spec = pending();
      const waiting = waitUntilFinal(spec, { timeoutMs: 120, intervalMs: 50 }).catch(
        (e: unknown) => e,
      );
      await vi.advanceTimersByTimeAsync(1_000);
      const error = await waiting;
      expect(isWaitTimeoutError(error)).toBe(true);
      expect(error).toMatchObject({
        name: "WaitTimeoutError",
        lastState: "processing",
        timeoutMs: 120,
        path: "/api/v1/txn/query",
      });
      // Reads at 0 and 50 ms; the next pause (75 ms) is cut off by the deadline at 120 ms.
      expect(spec.reads).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it("cuts a read still running at the deadline off there, and keeps a caller's abort reason", async () => {
    // A read that never ends unless aborted (a long history paged through to find the record).
    const slow = {
      ...pending(),
      read: (o: { signal?: AbortSignal | undefined }) =>
        new Promise<{ state: string }>((resolve, reject) => {
          if (slow.reads++ === 0) return resolve({ state: "processing" });
          o.signal?.addEventListener("abort", () => reject(o.signal?.reason), { once: true });
        }),
    };
    const started = Date.now();
    const error = await waitUntilFinal(slow, { timeoutMs: 150, intervalMs: 10 }).catch(
      (e: unknown) => e,
    );
    expect(isWaitTimeoutError(error)).toBe(true);
    expect((error as { lastState?: string }).lastState).toBe("processing");
    expect(Date.now() - started).toBeLessThan(1_000);

    const caller = new AbortController();
    const reason = new Error("shutting down");
    setTimeout(() => caller.abort(reason), 50);
    const aborted = await waitUntilFinal(slow, {
      timeoutMs: 10_000,
      intervalMs: 10,
      signal: caller.signal,
    }).catch((e: unknown) => e);
    expect(aborted).toBe(reason);
  });

  it("is not a ConnectionError: a retry-on-connection-failure must not send a write again", async () => {
    // create and waitForResult in one try block, the catch repeating the write with
    // error.idempotencyKey on a connection error: a wait running out used to be a TimeoutError
    // (a ConnectionError) without a key, and the "retry" minted a new key: a second payout.
    vi.useFakeTimers();
    try {
      const waiting = waitUntilFinal(pending(), { timeoutMs: 100, intervalMs: 50 }).catch(
        (e: unknown) => e,
      );
      await vi.advanceTimersByTimeAsync(1_000);
      const error = await waiting;
      expect(isWaitTimeoutError(error)).toBe(true);
      expect(isMerchantkitError(error)).toBe(true);
      expect(isConnectionError(error)).toBe(false);
      expect(isTimeoutError(error)).toBe(false);
      expect(error).not.toHaveProperty("idempotencyKey");
    } finally {
      vi.useRealTimers();
    }
  });
});
