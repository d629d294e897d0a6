/**
 * Redaction of secrets and card data from anything that may reach a log, an error or an event.
 * Matching is by field name, case-insensitive, at any depth, and inside JSON-encoded string
 * fields too (accountInfomation carries a cardNumber inside a string). Values are replaced, never
 * partially kept, so no prefix of a card number or key survives.
 *
 * Field names are not enough for what the service writes in free text (`respMsg: "invalid
 * cardNumber 4111…"`) or under a name no list holds (`cardNo`): every string is also searched
 * for digit runs a card number could be (12 or more digits, see forEachCardLikeRun; card numbers
 * have 12 to 19), whose digits become `*`, and, when the caller names them,
 * for the client's own credentials, replaced wherever they appear verbatim. A number of 12 digits
 * or more (a card number sent as a JSON number) becomes a string of `*`. The value of a field
 * named as an id (cardId, beneficiaryId, serviceIds, requestId…: 64-bit ids have up to 19
 * digits) is an id or a key and is kept.
 */
import { isJsonNumber } from "../json/json-number";
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
  "cvc2",
  "cvn",
  "cvn2",
  "cardcvv",
  "cardcvc",
  "securitycode",
  "pin",
  "pincode",
  "cardpin",
  "pinblock",
  "pan",
  "idnumber",
  "identitynumber",
  "registerno",
  "iban",
  // Personal contact numbers: beneficiary receiverInfo.phone and walletPhone, payer phoneNumber,
  // cardholder mobile (the area codes alone name no one and stay).
  "phone",
  "phonenumber",
  "walletphone",
  "mobile",
]);

export function isSensitiveKey(key: string): boolean {
  return SENSITIVE_KEYS.has(key.toLowerCase());
}

/** What else to look for besides field names. */
export interface RedactOptions {
  /**
   * The client's own credentials (API keys, the signing secret), replaced by "[REDACTED]"
   * wherever they appear verbatim. Ones shorter than 8 characters are not looked for: they
   * would blank ordinary words, and no real key is that short.
   */
  secrets?: readonly string[] | undefined;
}

/** Credentials shorter than this are not searched for in text (see RedactOptions.secrets). */
const MIN_SECRET_LENGTH = 8;

// How a card number's digit groups are written apart: by nothing, a run of spaces, the no-break
// and thin ones among them (U+00A0, U+2007, U+2009, U+202F…; not tabs or line breaks, which part
// columns and lines), or a dash or underscore with or without spaces around it ("4111 - 1111",
// en and em dashes, the minus sign).
const SPACES = "[ \\u00a0\\u1680\\u2000-\\u200a\\u202f\\u205f\\u3000]";
const GROUP_GAP = `(?:${SPACES}*[-_\\u2010-\\u2015\\u2212]${SPACES}*|${SPACES}+)`;
// 12 digits or more, apart by such gaps anywhere: "4111111111111111", "4111 1111 1111 1111",
// "4111-1111-1111-1111", "4111  1111\u00a01111_1111". Dates and times ("2026-11-26 17:30") stop
// short of 12 digits.
const GAPPED_RUN = `\\d(?:${GROUP_GAP}?\\d){11,}`;
// '.' and '/' also part amounts, dates, versions and addresses, so a run they part is one only in
// the groupings card numbers are printed in, one separator throughout: 4-4-4-4 and 4-4-4-4-3,
// 4-6-5 (Amex), 4-6-4 (Diners); "4111.1111.1111.1111", "3782/822463/10005". Not a stretch of a
// longer dotted run ("1.4111.1111.1111.1111", a version or an address).
const DOTTED_RUN =
  "(?<!\\d[./]?)\\d{4}(?<cardSep>[./])(?:\\d{4}\\k<cardSep>\\d{4}\\k<cardSep>\\d{4}(?:\\k<cardSep>\\d{3})?|\\d{6}\\k<cardSep>\\d{4,5})(?![./]?\\d)";
const CARD_RUN = `${DOTTED_RUN}|${GAPPED_RUN}`;
const UUID_RUN = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
// For redaction: a card run not touching a letter, so the digits inside a hex key
// ("3f2a1234567890123b…") are left alone, and a UUID skipped as a whole (its groups of digits can
// add up to 12).
const CARD_LIKE = new RegExp(`${UUID_RUN}|(?<![a-z\\d])(?:${CARD_RUN})(?![a-z\\d])`, "gi");
const CARD_RUNS = new RegExp(CARD_RUN, "g");
// A cheap first look: no string without one of these holds a card run.
const HAS_CARD_LIKE = new RegExp(`\\d(?:${GROUP_GAP}?\\d){11}|\\d{4}[./]\\d{4}`);

/** True for 13–19 digits passing the Luhn check card numbers carry: what a card number looks like. */
export function looksLikeCardNumber(digits: string): boolean {
  if (!/^\d{13,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * True when the digits text.slice(start, end) are the whole part or the fraction of a decimal
 * number ("1234567890123456.785", "0.4111111111111111"): an amount, not a card number. Only
 * digits not grouped: "4111 1111 1111 1111.50" is still a card number before a full stop. And
 * never digits that could be a card number (13 to 19 passing the Luhn check): a card number typed
 * into an amount ("4111111111111111.00") is masked, at the cost of masking one long amount in ten.
 */
function isDecimalPart(text: string, start: number, end: number): boolean {
  const digits = text.slice(start, end);
  if (!/^\d+$/.test(digits) || looksLikeCardNumber(digits)) return false;
  return (
    /^\.\d/.test(text.slice(end, end + 2)) ||
    /\d\.$/.test(text.slice(Math.max(0, start - 2), start))
  );
}

function replaceRuns(text: string, pattern: RegExp, replace: (run: string) => string): string {
  let out = "";
  let from = 0;
  for (const match of text.matchAll(pattern)) {
    const start = match.index;
    const end = start + match[0].length;
    if (isDecimalPart(text, start, end)) continue;
    out += text.slice(from, start) + replace(match[0]);
    from = end;
  }
  return from === 0 ? text : out + text.slice(from);
}

/**
 * `text` with every digit run a card number could be written as replaced by `replace(run)`, the
 * rule redactText masks by, also where a run touches letters ("PAN4111111111111111"): 12 digits
 * or more, apart or not by dashes, underscores or runs of spaces (no-break and thin ones too),
 * or by '.' or '/' in a card number's grouping (4-4-4-4, 4-4-4-4-3, 4-6-5, 4-6-4). A run may hold
 * a card number beside other digits, and is handed over whole; the integer part or fraction of a
 * decimal number ("1234567890123456.785") is not a run. For code that judges the digits itself
 * (a Luhn check, first 6 and last 4 kept).
 */
export function replaceCardLikeRuns(text: string, replace: (run: string) => string): string {
  return hasDigits(text, 12) && HAS_CARD_LIKE.test(text)
    ? replaceRuns(text, CARD_RUNS, replace)
    : text;
}

/**
 * Whether `text` holds `min` digits or more: no card run has fewer, and counting costs a fraction
 * of the regex over the texts of a record (times, names, short references) that almost never
 * hold one.
 */
function hasDigits(text: string, min: number): boolean {
  if (text.length < min) return false;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57 && ++count >= min) return true;
  }
  return false;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// A field named as an id (id, cardId, serviceIds, requestId, beneficiaryID…): its value is an id
// or a key (digits, hex, a UUID; 64-bit ids have up to 19 digits), never a card number.
const ID_KEY = /(?:^id|Id|ID)s?$/;
// An integer of 12 digits or more: a card number sent as a JSON number.
const LONG_INTEGER = /^\d{12,}$/;

function maskRun(run: string): string {
  return UUID.test(run) ? run : run.replace(/\d/g, "*");
}

function maskText(text: string, secrets: readonly string[] | undefined, cards: boolean): string {
  let out = cards && HAS_CARD_LIKE.test(text) ? replaceRuns(text, CARD_LIKE, maskRun) : text;
  for (const secret of secrets ?? []) {
    if (secret.length >= MIN_SECRET_LENGTH && out.includes(secret))
      out = out.replaceAll(secret, REDACTED);
  }
  return out;
}

/**
 * `text` with every digit run a card number could be masked (its digits become `*`) and every
 * credential in `options.secrets` replaced: for free text (a respMsg, an error page, a message).
 */
export function redactText(text: string, options: RedactOptions = {}): string {
  return maskText(text, options.secrets, true);
}

const MAX_DEPTH = 12;

function redactString(
  text: string,
  depth: number,
  options: RedactOptions,
  idField: boolean,
): string {
  const first = text.trimStart()[0];
  if (first === "{" || first === "[") {
    let parsed: unknown;
    try {
      parsed = parseJson(text);
    } catch {
      parsed = undefined;
    }
    if (typeof parsed === "object" && parsed !== null)
      return stringifyJson(redactValue(parsed, depth + 1, options, false));
  }
  return maskText(text, options.secrets, !idField);
}

function redactValue(
  value: unknown,
  depth: number,
  options: RedactOptions,
  idField: boolean,
): unknown {
  if (depth > MAX_DEPTH) return "[…]";
  if (typeof value === "string") return redactString(value, depth, options, idField);
  // An array's items keep the field's name: serviceIds: ["1953…"] are ids too.
  if (Array.isArray(value))
    return value.map((item) => redactValue(item, depth + 1, options, idField));
  if (typeof value === "number" || isJsonNumber(value)) {
    const digits = typeof value === "number" ? String(value) : value.text;
    return !idField && LONG_INTEGER.test(digits) ? digits.replace(/\d/g, "*") : value;
  }
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Headers) return redactHeaders(value);
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value; // JsonNumber, Date, Buffer...
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    setOwn(
      out,
      key,
      isSensitiveKey(key) && item != null && item !== ""
        ? REDACTED
        : redactValue(item, depth + 1, options, ID_KEY.test(key)),
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

/**
 * A deep copy of `value` with every sensitive field replaced by "[REDACTED]", and in every
 * other string card-like digit runs masked and `options.secrets` replaced (see redactText).
 */
export function redact<T>(value: T, options: RedactOptions = {}): T {
  return redactValue(value, 0, options, false) as T;
}

/** Headers as a plain object with sensitive ones (ApiKey, apikey, x-signature...) redacted. */
export function redactHeaders(headers: Headers | Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  const entries = headers instanceof Headers ? headers.entries() : Object.entries(headers);
  for (const [key, item] of entries) setOwn(out, key, isSensitiveKey(key) ? REDACTED : item);
  return out;
}
