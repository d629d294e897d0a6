/**
 * Redaction of secrets and card data from anything that may reach a log, an error or an event.
 * Matching is by field name, case-insensitive, at any depth, and inside JSON-encoded string
 * fields too (accountInfomation carries a cardNumber inside a string). Values are replaced, never
 * partially kept, so no prefix of a card number or key survives.
 */
import { parseJson } from "../json/parse-json";
import { stringifyJson } from "../json/stringify-json";

export const REDACTED = "[REDACTED]";

/** Field and header names whose values are never shown. Lower-case, compared case-insensitively. */
export const SENSITIVE_KEYS: ReadonlySet<string> = new Set([
  "sign",
  "signature",
  "x-signature",
  "secret",
  "secretkey",
  "webhooksecret",
  "apikey",
  "accountapikey",
  "authorization",
  "password",
  "cardnumber",
  "card3dsvalues",
  "cvv",
  "cvc",
  "cvv2",
  "pan",
  "idnumber",
  "identitynumber",
  "registerno",
  "iban",
]);

export function isSensitiveKey(key: string): boolean {
  return SENSITIVE_KEYS.has(key.toLowerCase());
}

const MAX_DEPTH = 12;

function redactString(text: string, depth: number): string {
  const first = text.trimStart()[0];
  if (first !== "{" && first !== "[") return text;
  let parsed: unknown;
  try {
    parsed = parseJson(text);
  } catch {
    return text;
  }
  if (typeof parsed !== "object" || parsed === null) return text;
  return stringifyJson(redactValue(parsed, depth + 1));
}

function redactValue(value: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH) return "[…]";
  if (typeof value === "string") return redactString(value, depth);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Headers) return redactHeaders(value);
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value; // JsonNumber, Date, Buffer...
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    setOwn(
      out,
      key,
      isSensitiveKey(key) && item != null && item !== "" ? REDACTED : redactValue(item, depth + 1),
    );
  }
  return out;
}

/**
 * JSON.parse makes "__proto__" an own key; assigned, it would become the copy's prototype (the
 * service's content as inherited fields) instead of a field of it.
 */
function setOwn(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(out, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else out[key] = value;
}

/** A deep copy of `value` with every sensitive field replaced by "[REDACTED]". */
export function redact<T>(value: T): T {
  return redactValue(value, 0) as T;
}

/** Headers as a plain object with sensitive ones (ApiKey, apikey, x-signature...) redacted. */
export function redactHeaders(headers: Headers | Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  const entries = headers instanceof Headers ? headers.entries() : Object.entries(headers);
  for (const [key, item] of entries) setOwn(out, key, isSensitiveKey(key) ? REDACTED : item);
  return out;
}
