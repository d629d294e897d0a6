// createSyncContext: the issuing, account and payout clients from the configuration, sharing one
// request-rate limiter, plus the database and a log sink.
import { AccountClient } from "@merchantkit/account";
import { IssuingClient } from "@merchantkit/issuing";
import { PayoutClient } from "@merchantkit/payout";
import { requireSettings } from "../config/load-config";
import type { ReconcilerConfig } from "../config/reconciler-config";
import type { Db } from "../db/database";
import { createRateLimiter } from "./rate-limiter";
import type { SyncContext } from "./sync-types";

/**
 * Builds a SyncContext. Needs the environment, both API keys, the payout secret key and the
 * merchant number (ConfigError naming the missing ones otherwise). `log` defaults to stdout, one line per event.
 */
export function createSyncContext(
  config: ReconcilerConfig,
  db: Db,
  opts: {
    log?: (line: string) => void;
    fetch?: typeof globalThis.fetch;
    /** Client backoff between retries (tests shorten it). */
    retryDelay?: { baseDelayMs?: number; maxDelayMs?: number };
  } = {},
): SyncContext {
  requireSettings(config, [
    "environment",
    "issuingApiKey",
    "accountApiKey",
    "payoutSecretKey",
    "merchantNo",
  ]);
  const limiter = createRateLimiter(config.requestsPerSecond);
  // One limiter paces every attempt of every client; they send with node:http unless a test
  // hands in its own fetch.
  const shared = {
    environment: config.environment as NonNullable<ReconcilerConfig["environment"]>,
    maxRetries: config.maxRetries,
    retryDelay: opts.retryDelay,
    throttle: () => limiter.take(),
    fetch: opts.fetch,
    userAgent: "merchantkit-reconciler",
  };
  const issuing = new IssuingClient({
    ...shared,
    apiKey: config.issuingApiKey as string,
    merchantNo: config.merchantNo,
  });
  const account = new AccountClient({
    ...shared,
    apiKey: config.accountApiKey as string,
    timestampUnit: config.timestampUnit,
  });
  const payout = new PayoutClient({
    ...shared,
    secretKey: config.payoutSecretKey as string,
    merchantNo: config.merchantNo as string,
  });
  return {
    db,
    issuing,
    account,
    payout,
    config,
    log: opts.log ?? ((line) => process.stdout.write(`${line}\n`)),
  };
}
