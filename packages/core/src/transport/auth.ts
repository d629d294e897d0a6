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
import { noteSigningSecret } from "./credentials";
import type { AuthKind } from "./endpoint";

export interface AuthStrategy {
  readonly kind: AuthKind;
  /** Adds what the body needs (sign); `unsignedFields` come from the endpoint definition. */
  signBody?(body: Record<string, unknown>, unsignedFields: readonly string[]): Promise<void>;
  /** Sets the attempt's credential headers; `now` is the clock for x-timestamp. */
  setHeaders?(headers: Headers, now: () => number): void;
}

/**
 * A credential checked at construction, so a bad one fails there with a ConfigurationError naming
 * the option and the rule, never the value: sent as given, a key with a line break or a
 * character beyond Latin-1 failed only at the first request, with fetch's TypeError quoting the
 * whole key. Blank keys and keys with whitespace at either end (a line break read with them from
 * a file) are refused too: fetch would trim a header's value, and a `sign` would be computed
 * with the stray whitespace, failing with 40100 and no hint why.
 */
function requireSecret(value: unknown, name: string, opts: { header?: boolean } = {}): string {
  if (typeof value !== "string" || value.length === 0) {
    throw new ConfigurationError(`${name} is required (a non-empty string)`);
  }
  if (value.trim().length === 0) {
    throw new ConfigurationError(`${name} is blank (only whitespace); set it to the key itself`);
  }
  if (value.trim() !== value) {
    throw new ConfigurationError(
      `${name} begins or ends with whitespace (a line break read from a file or an environment variable?); trim it`,
    );
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(value)) {
    throw new ConfigurationError(
      `${name} contains a control character (a line break, a tab, a NUL); a key holds none`,
    );
  }
  if (opts.header && /[\u0100-\uffff]/.test(value)) {
    throw new ConfigurationError(
      `${name} contains a character an HTTP header cannot carry (only Latin-1, U+0000 to U+00FF); check the key`,
    );
  }
  return value;
}

/** Payout and profit share: SHA-256 `sign` over the body, provider-notes §1. */
export function signAuth(opts: { secretKey: string }): AuthStrategy {
  const secretKey = requireSecret(opts.secretKey, "secretKey");
  return {
    kind: "sign",
    async signBody(body, unsignedFields) {
      // So an error built from the answer can blank the secret if the answer echoes it.
      noteSigningSecret(body, secretKey);
      delete body.sign;
      body.sign = await sign(body, secretKey, { unsigned: unsignedFields });
    },
  };
}

/** Issuing: header `ApiKey`. */
export function issuingApiKeyAuth(opts: { apiKey: string }): AuthStrategy {
  const apiKey = requireSecret(opts.apiKey, "apiKey", { header: true });
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
  const apiKey = requireSecret(opts.apiKey, "apiKey", { header: true });
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
