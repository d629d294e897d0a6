/**
 * Authentication strategies, in two steps. `signBody` runs once per call, before the first
 * attempt: the payout / profit-share `sign` covers only body fields, and the body (idempotency
 * key included) is the same on every attempt, so every attempt carries the same, valid sign.
 * `setHeaders` runs in ky's beforeRequest hook on every attempt: the account area's x-timestamp
 * must be within ±10 minutes of the service's clock, so a retry after a long backoff carries a
 * fresh one.
 */
import { ConfigurationError } from "../errors/local-errors";
import { sign } from "../signing/sign";
import type { AuthKind } from "./endpoint";

export interface AuthStrategy {
  readonly kind: AuthKind;
  /** Adds what the body needs (sign); `unsignedFields` come from the endpoint definition. */
  signBody?(body: Record<string, unknown>, unsignedFields: readonly string[]): Promise<void>;
  /** Sets the attempt's credential headers; `now` is the clock for x-timestamp. */
  setHeaders?(headers: Headers, now: () => number): void;
}

function requireSecret(value: unknown, name: string): string {
  if (typeof value !== "string" || value.length === 0) {
    throw new ConfigurationError(`${name} is required (a non-empty string)`);
  }
  return value;
}

/** Payout and profit share: SHA-256 `sign` over the body, provider-notes §1. */
export function signAuth(opts: { secretKey: string }): AuthStrategy {
  const secretKey = requireSecret(opts.secretKey, "secretKey");
  return {
    kind: "sign",
    async signBody(body, unsignedFields) {
      delete body.sign;
      body.sign = await sign(body, secretKey, { unsigned: unsignedFields });
    },
  };
}

/** Issuing: header `ApiKey`. */
export function issuingApiKeyAuth(opts: { apiKey: string }): AuthStrategy {
  const apiKey = requireSecret(opts.apiKey, "apiKey");
  return {
    kind: "issuingApiKey",
    setHeaders(headers) {
      headers.set("ApiKey", apiKey);
    },
  };
}

/** Account: header `apikey` and `x-timestamp` (10-digit seconds or 13-digit milliseconds). */
export function accountApiKeyAuth(opts: {
  apiKey: string;
  timestampUnit?: "s" | "ms";
}): AuthStrategy {
  const apiKey = requireSecret(opts.apiKey, "accountApiKey");
  const unit = opts.timestampUnit ?? "ms";
  if (unit !== "s" && unit !== "ms")
    throw new ConfigurationError('timestampUnit must be "s" or "ms"');
  return {
    kind: "accountApiKey",
    setHeaders(headers, now) {
      const ms = now();
      headers.set("apikey", apiKey);
      headers.set("x-timestamp", String(unit === "ms" ? ms : Math.floor(ms / 1000)));
    },
  };
}
