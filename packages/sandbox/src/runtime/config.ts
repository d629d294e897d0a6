/**
 * The simulated merchant and the service's knobs. Everything has a default, so
 * `startSandbox()` works with no arguments; tests override what they check.
 */
export interface SandboxConfig {
  merchantNo: string;
  /** Payout and profit-share `sign` secret. */
  secretKey: string;
  /** Issuing header `ApiKey`. */
  issuingApiKey: string;
  /** Account header `apikey`. */
  accountApiKey: string;
  /** Issuing webhook secret, Base64 text (the HMAC key is its decoded bytes, as the contract says). */
  webhookSecret: string;
  /** Where pushes go; a push with no URL is recorded as undeliverable. */
  webhookUrls: {
    issuing?: string | undefined;
    payout?: string | undefined;
    profitShare?: string | undefined;
  };
  /** Sub-merchants the configured merchant may act for with onBehalfOf. */
  children: string[];
  /** Retry interval of webhook pushes (the service: 15 s); tests scale it down. */
  webhookRetryIntervalMs: number;
  /** Retries after the first push (the service: 10). */
  webhookMaxRetries: number;
  /** How far x-timestamp may be from the sandbox clock (the service: 10 minutes). */
  timestampSkewMs: number;
  /** How long an async operation stays P (card operations, payouts, profit shares) before it settles. */
  settleDelayMs: number;
  /** Beneficiary review time (WAITING → PASS/REJECT). */
  reviewDelayMs: number;
  /** Seed of ids and random choices. */
  seed: number;
  /** Opening merchant balances per currency (decimal strings). */
  balances: Record<string, string>;
  /**
   * Where the sandbox is reachable ("http://127.0.0.1:4010"), set once it listens; links the
   * sandbox hands out (the payout voucherUrl) start with it, and are path-absolute without it.
   */
  publicOrigin?: string | undefined;
}

export function defaultConfig(): SandboxConfig {
  return {
    merchantNo: "M1000001",
    secretKey: "sandbox-secret-key",
    issuingApiKey: "sandbox-issuing-api-key",
    accountApiKey: "sandbox-account-api-key",
    webhookSecret: Buffer.from("sandbox-webhook-secret-32-bytes!").toString("base64"),
    webhookUrls: {},
    children: ["M1000002"],
    webhookRetryIntervalMs: 15_000,
    webhookMaxRetries: 10,
    timestampSkewMs: 10 * 60 * 1000,
    settleDelayMs: 2_000,
    reviewDelayMs: 5_000,
    seed: 1,
    balances: { USD: "1000000.00", EUR: "500000.00", SGD: "500000.00", HKD: "500000.00" },
  };
}

/**
 * `count` sub-merchant numbers for a platform configuration, M2000001, M2000002, … (apart from
 * the default merchant and child): `startSandbox({ children: subMerchantNos(3) })`.
 */
export function subMerchantNos(count: number): string[] {
  if (!Number.isInteger(count) || count < 0 || count > 999_999) {
    throw new RangeError("count: must be a whole number from 0 to 999999");
  }
  return Array.from({ length: count }, (_, i) => `M${2_000_001 + i}`);
}
