/**
 * Polling /profit/query until a share or reversal leaves "processing". The result notification
 * says the same without polling; this is for callers without a public endpoint, and for
 * checking after a missed notification.
 */
import { profitQuery } from "@merchantkit/contract";
import { type RequestOptions, TimeoutError } from "@merchantkit/core";
import type { FinalProfitShareResult, FinalProfitShareState, ProfitShareResult } from "./types";

export interface WaitForResultOptions {
  /** Pause between two queries. Default 2,000 ms. */
  intervalMs?: number | undefined;
  /** Give up after this long in all, with a TimeoutError. Default 60,000 ms. */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Per-query options (its own per-attempt timeout, retries). */
  requestOptions?: RequestOptions | undefined;
}

const FINAL_STATES: readonly string[] = [
  "success",
  "failed",
  "partial",
] satisfies FinalProfitShareState[];

/**
 * True for the documented final states. An unknown state counts as not final, so a new
 * in-between state never ends a wait early (a new final one runs into the timeout instead).
 */
export function isFinalProfitShareState(state: string): state is FinalProfitShareState {
  return FINAL_STATES.includes(state);
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    function abort() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener("abort", abort, { once: true });
  });
}

export async function waitForFinal(
  query: (options: RequestOptions) => PromiseLike<ProfitShareResult>,
  opts: WaitForResultOptions = {},
): Promise<FinalProfitShareResult> {
  const intervalMs = opts.intervalMs ?? 2_000;
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const deadline = Date.now() + timeoutMs;
  const requestOptions: RequestOptions = {
    ...opts.requestOptions,
    ...(opts.signal ? { signal: opts.signal } : {}),
  };
  for (;;) {
    const result = await query(requestOptions);
    if (isFinalProfitShareState(result.state)) return result as FinalProfitShareResult;
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new TimeoutError(
        `The profit share ${result.profitReference} is still ${result.state} after ${timeoutMs} ms; query it again later or wait for the result notification`,
        { path: profitQuery.path, timeoutMs },
      );
    }
    await pause(Math.min(intervalMs, left), opts.signal);
  }
}
