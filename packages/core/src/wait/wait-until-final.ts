/**
 * Waiting for an asynchronous result: read a record again, pausing longer each time, until it is
 * final, the wait's timeout passes (a TimeoutError naming the state last seen) or the signal
 * aborts. One loop for every "wait for" of the area clients (an operation settling, a
 * beneficiary's review, a payout, a profit share).
 */
import { TimeoutError } from "../errors/local-errors";
import type { RequestOptions } from "../transport/transport";

export interface WaitOptions {
  /** First pause between two reads (default 500 ms); each next one is 1.5× longer. */
  intervalMs?: number | undefined;
  /** Longest pause between two reads (default 5,000 ms). */
  maxIntervalMs?: number | undefined;
  /** Give up after this long in all, with a TimeoutError (default 60,000 ms). */
  timeoutMs?: number | undefined;
  /** Aborts the wait (between reads and the read in flight) with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** Options of each read (its own per-attempt timeout, retries). */
  requestOptions?: RequestOptions | undefined;
}

export interface WaitSpec<T> {
  /** One read of the record. */
  read: (options: RequestOptions) => PromiseLike<T>;
  /** The record's state, and whether it is final. */
  state: (record: T) => string;
  isFinal: (record: T) => boolean;
  /** What is waited for, for the timeout's message ("operation 1953…"). */
  what: string;
  /** The endpoint read, for the error. */
  path: string;
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

/** Reads until the record is final; answers it. */
export async function waitUntilFinal<T>(spec: WaitSpec<T>, opts: WaitOptions = {}): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const maxIntervalMs = opts.maxIntervalMs ?? 5_000;
  let interval = opts.intervalMs ?? 500;
  const deadline = Date.now() + timeoutMs;
  const requestOptions: RequestOptions = {
    ...opts.requestOptions,
    ...(opts.signal ? { signal: opts.signal } : {}),
  };
  for (;;) {
    const record = await spec.read(requestOptions);
    if (spec.isFinal(record)) return record;
    const left = deadline - Date.now();
    if (left <= 0) {
      const state = spec.state(record);
      throw new TimeoutError(
        `${spec.what} is still ${state} after ${timeoutMs} ms; read it again later or wait for its notification`,
        { path: spec.path, timeoutMs, lastState: state },
      );
    }
    await pause(Math.min(interval, left), opts.signal);
    interval = Math.min(interval * 1.5, maxIntervalMs);
  }
}
