// The sync: windowed streams with watermarks and lookback, account transactions by serviceId,
// one runner per stream, a request-rate limiter shared by all.

export { type LogLevel, logEvent } from "../log-event";
export { SERVICE_ID_BATCH } from "./account-stream";
export { createRateLimiter, type RateLimiter } from "./rate-limiter";
export { readWindow, type WindowRead } from "./read-window";
export { createSyncContext, runSync } from "./run-sync";
export * from "./sync-types";
export { splitWindows, type TimeWindow, WindowPrefix } from "./windows";
