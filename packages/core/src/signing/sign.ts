// The provider's request and notification signature (provider-notes §1): SHA-256 over the
// values of the signed parameters in ASCII key order, followed by the merchant secret key.
// Web Crypto (crypto.subtle), so the same code signs on Node, Bun, Deno and Workers; its digest
// is asynchronous, hence sign and verifySign return promises.
import { isJsonNumber } from "../json/json-number";
import { constantTimeEqual, toHex } from "./constant-time-equal";
import { innerFirstJson } from "./inner-first-json";

export interface SignOptions {
  /** Parameter names a contract table marks as not signed; `sign` itself is always left out. */
  unsigned?: readonly string[];
}

/**
 * The text that is hashed, minus the secret key: the values (never the names) of the signed
 * parameters, sorted by name in ASCII order, concatenated. Parameters that are null,
 * undefined or "" are left out ("0" is kept); objects and arrays count as their inner-first
 * JSON text. For debugging a signature mismatch; it never contains the secret.
 */
export function signingText(params: Record<string, unknown>, opts: SignOptions = {}): string {
  const unsigned = opts.unsigned ?? [];
  const names = Object.keys(params)
    .filter((name) => name !== "sign" && !unsigned.includes(name))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let text = "";
  for (const name of names) {
    const value = signedValue(params[name], name);
    if (value !== undefined) text += value;
  }
  return text;
}

/** The `sign` value for `params`: lowercase hex SHA-256 of signingText + secretKey. */
export async function sign(
  params: Record<string, unknown>,
  secretKey: string,
  opts: SignOptions = {},
): Promise<string> {
  assertSecret(secretKey);
  const text = encoder.encode(signingText(params, opts) + secretKey);
  return toHex(await crypto.subtle.digest("SHA-256", text));
}

const encoder = new TextEncoder();

/**
 * True when `params.sign` is the signature of the other parameters. The comparison ignores
 * case and runs in constant time; a missing, non-string or malformed sign gives false.
 */
export async function verifySign(
  params: Record<string, unknown>,
  secretKey: string,
  opts: SignOptions = {},
): Promise<boolean> {
  const given = params.sign;
  const expected = encoder.encode(await sign(params, secretKey, opts));
  if (typeof given !== "string") return false;
  return constantTimeEqual(encoder.encode(given.toLowerCase()), expected);
}

// The string a parameter contributes, or undefined when the rule leaves it out.
function signedValue(value: unknown, name: string): string | undefined {
  if (value === null || value === undefined || value === "") return undefined;
  switch (typeof value) {
    case "string":
      return value;
    case "number":
      if (!Number.isFinite(value)) {
        throw new TypeError(`sign: parameter ${name} is ${value}, which has no JSON form`);
      }
      return String(value);
    case "boolean":
    case "bigint":
      return String(value);
    case "object": {
      if (isJsonNumber(value)) return value.text;
      const toJSON = (value as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === "function") return signedValue(toJSON.call(value, name), name);
      return innerFirstJson(value);
    }
    default:
      // Functions and symbols are never sent, so they are never signed.
      return undefined;
  }
}

function assertSecret(secretKey: unknown): void {
  if (typeof secretKey !== "string" || secretKey.length === 0) {
    throw new TypeError("sign: secretKey must be a non-empty string (the merchant secret key)");
  }
}
