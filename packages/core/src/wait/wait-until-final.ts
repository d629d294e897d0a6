/**
 * Waiting for an asynchronous result: read a record again, pausing longer each time, until it is
 * final, the wait's timeout passes (a WaitTimeoutError naming the state last seen) or the signal
 * aborts. One loop for every "wait for" of the area clients (an operation settling, a
 * beneficiary's review, a payout, a profit share).
 */
import { WaitTimeoutError } from "../errors/local-errors";
import { milliseconds } from "../transport/option-checks";
import type { RequestOptions } from "../transport/transport";

export interface WaitOptions {
  /** First pause between two reads (default 500 ms); each next one is 1.5× longer. */
  intervalMs?: number | undefined;
  /** Longest pause between two reads (default 5,000 ms). */
  maxIntervalMs?: number | undefined;
  /**
   * Give up after this long in all, with a WaitTimeoutError (default 60,000 ms). Not a
   * ConnectionError: nothing failed, the record is simply not final yet.
   */
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

/**
 * Reads until the record is final; answers it. Bad wait options are refused before any read.
 * `timeoutMs` bounds the wait in all: a read still running at the deadline (a list paged through
 * to find the record) is cut off there too, and the WaitTimeoutError names the state last seen.
 */
export async function waitUntilFinal<T>(spec: WaitSpec<T>, opts: WaitOptions = {}): Promise<T> {
  const timeoutMs = milliseconds(opts.timeoutMs, 60_000, "timeoutMs");
  const maxIntervalMs = milliseconds(opts.maxIntervalMs, 5_000, "maxIntervalMs", 1);
  let interval = milliseconds(opts.intervalMs, 500, "intervalMs", 1);
  if (opts.signal?.aborted) throw opts.signal.reason;
  const deadline = Date.now() + timeoutMs;
  // One signal for reads and pauses: the caller's abort (with its reason), or the deadline.
  const cutoff = new AbortController();
  const timer = setTimeout(() => cutoff.abort(), timeoutMs);
  const forward = () => cutoff.abort(opts.signal?.reason);
  opts.signal?.addEventListener("abort", forward, { once: true });
  const requestOptions: RequestOptions = { ...opts.requestOptions, signal: cutoff.signal };
  let state: string | undefined;
  const timedOut = () =>
    new WaitTimeoutError(
      `${spec.what} is still ${state ?? "unread"} after ${timeoutMs} ms; read it again later or wait for its notification`,
      { path: spec.path, timeoutMs, lastState: state },
    );
  // What a read or pause cut off at the deadline ends with; a caller's abort keeps its reason.
  const cutOff = (error: unknown) =>
    cutoff.signal.aborted && !opts.signal?.aborted ? timedOut() : error;
  try {
    for (;;) {
      const record = await spec.read(requestOptions).then(undefined, (error: unknown) => {
        throw cutOff(error);
      });
      if (spec.isFinal(record)) return record;
      state = spec.state(record);
      const left = deadline - Date.now();
      if (left <= 0) throw timedOut();
      await pause(Math.min(interval, left), cutoff.signal).catch((error: unknown) => {
        throw cutOff(error);
      });
      interval = Math.min(interval * 1.5, maxIntervalMs);
    }
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener("abort", forward);
  }
}
