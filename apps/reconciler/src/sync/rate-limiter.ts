// A token bucket shared by every request of a process (all streams, every client): the
// service's rate limit is per merchant, so the sync paces itself as a whole.

interface RateLimiter {
  /** Resolves when the next request may go out. */
  take(): Promise<void>;
  readonly requestsPerSecond: number;
}

/**
 * `requestsPerSecond` on average with bursts of up to `burst` requests (default one second's
 * worth). Each caller is given the next free slot, so waiters go out in arrival order.
 */
export function createRateLimiter(
  requestsPerSecond: number,
  opts: { burst?: number; now?: () => number } = {},
): RateLimiter {
  if (!(requestsPerSecond > 0)) throw new RangeError("requestsPerSecond must be positive");
  const interval = 1000 / requestsPerSecond;
  const burst = Math.max(1, Math.floor(opts.burst ?? requestsPerSecond));
  const now = opts.now ?? (() => performance.now());
  let nextSlot = Number.NEGATIVE_INFINITY;
  return {
    requestsPerSecond,
    take() {
      const t = now();
      // An idle bucket refills up to `burst` slots in the past: those go out at once.
      const slot = Math.max(nextSlot, t - (burst - 1) * interval);
      nextSlot = slot + interval;
      const wait = slot - t;
      return wait <= 0 ? Promise.resolve() : new Promise((r) => setTimeout(r, Math.ceil(wait)));
    },
  };
}
