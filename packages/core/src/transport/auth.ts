/**
 * Authentication strategies, applied on every attempt (not once per call): the account area's
 * x-timestamp must be within ±10 minutes of the service's clock, so a retry after a long backoff
 * carries a fresh one, and the body is re-signed together with it.
 */
import { ConfigurationError } from "../errors/local-errors";
import { sign } from "../signing/sign";
import type { AuthKind } from "./endpoint";

export interface AuthContext {
  /** Wire body of this attempt; strategies may add fields (sign). */
  body: Record<string, unknown>;
  headers: Headers;
  /** Body fields that the signature leaves out, from the endpoint definition. */
  unsignedFields: readonly string[];
  now: () => number;
}

export interface AuthStrategy {
  readonly kind: AuthKind;
  apply(ctx: AuthContext): void;
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
    apply({ body, unsignedFields }) {
      delete body.sign;
      body.sign = sign(body, secretKey, { unsigned: unsignedFields });
    },
  };
}

/** Issuing: header `ApiKey`. */
export function issuingApiKeyAuth(opts: { apiKey: string }): AuthStrategy {
  const apiKey = requireSecret(opts.apiKey, "apiKey");
  return {
    kind: "issuingApiKey",
    apply({ headers }) {
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
    apply({ headers, now }) {
      const ms = now();
      headers.set("apikey", apiKey);
      headers.set("x-timestamp", String(unit === "ms" ? ms : Math.floor(ms / 1000)));
    },
  };
}
