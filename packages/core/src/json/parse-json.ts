// Lossless JSON.parse: numbers that a JS number cannot print back digit for digit (64-bit ids,
// "100.10", "1e5", "-0") come back as JsonNumber with their exact text; the rest stay numbers.
import { CHECKED, JsonNumber, type JsonValue } from "./json-number";

// Number tokens that are certainly canonical (String(Number(t)) === t): integers of at most 15
// digits (exact in a double) and decimals of at most 15 digits in [1e-6, 1e15) with no trailing
// zero (15 digits always survive the double round trip, and JS prints that range without an
// exponent). Anything outside this subset is checked with String(Number(t)) instead.
const SAFE_NUMBER =
  "(?:-?[1-9]\\d{0,14}|0|-?(?=[\\d.]{3,16}(?![\\d.eE+-]))(?:[1-9]\\d*|0(?!\\.0{6}))\\.\\d*[1-9])(?![\\d.eE+-])";
// A complete string token that does not begin with the \u0000 escape (those need escaping when
// markers are used, see below).
const PLAIN_STRING = '"(?!\\\\u0000)[^"\\\\]*(?:\\\\.[^"\\\\]*)*"';

// Skips, inside the regex engine, everything that needs no attention: structural characters,
// literals and whitespace (OTHER), plain strings and safe numbers. It stops before a quote (a
// string beginning with \u0000, or one that never closes) or a number that needs a look, which
// the loop below reads at that position (test() and lastIndex, no match array: a page of card
// transactions stops ~140 times). Each repetition takes a token plus the punctuation after it,
// which halves the repetitions for typical text. No alternative can start where another does,
// so it never backtracks. It is bounded because V8 keeps a backtrack entry per repetition and
// overflows on huge texts; at a batch boundary the next token may be an ordinary one, which the
// loop simply lets pass.
const OTHER = '[^"\\-\\d]*';
const SCAN = new RegExp(`${OTHER}(?:(?:${PLAIN_STRING}|${SAFE_NUMBER})${OTHER}){0,1000}`, "y");
const ANY_STRING = /"[^"\\]*(?:\\.[^"\\]*)*"/y;
const KEY_COLON = /[ \t\n\r]*:/y;
const NUMBER_GRAMMAR = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

// Risky number tokens are rewritten into strings starting with U+0000 and turned back into
// JsonNumber after JSON.parse. Real JSON strings can contain U+0000 only through the \u0000
// escape, so a real string that starts with it gets a second U+0000 in front, removed again
// in the walk: a single leading U+0000 then always means "number marker".
const MARK_CODE = 0;
const QUOTE = 0x22;
const MINUS = 0x2d;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;

// A character of a number token, read loosely: digits, sign, point and exponent.
function isNumberChar(code: number): boolean {
  return (
    (code >= DIGIT_0 && code <= DIGIT_9) ||
    code === 0x2e ||
    code === 0x2b ||
    code === MINUS ||
    code === 0x65 ||
    code === 0x45
  );
}

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Parses JSON text like JSON.parse, but losslessly: a number token becomes a JS number only when
 * `String(Number(token)) === token` and, for an integer, it is within ±(2^53 − 1); otherwise it becomes a JsonNumber holding the exact token,
 * so `stringifyJson(parseJson(t))` keeps every number's digits. Invalid JSON throws SyntaxError.
 */
export function parseJson(text: string): JsonValue {
  if (typeof text !== "string") {
    throw new TypeError(`parseJson: expected a string, got ${typeof text}`);
  }
  const end = text.length;
  let rewritten = "";
  let copied = 0;
  let markers = 0;
  let escapedStrings = false;
  let pos = 0;
  while (pos < end) {
    SCAN.lastIndex = pos;
    SCAN.test(text); // always matches: all of SCAN is optional
    const stop = SCAN.lastIndex;
    const code = text.charCodeAt(stop);
    if (code === MINUS || (code >= DIGIT_0 && code <= DIGIT_9)) {
      // The token is read loosely on purpose: "01", "1." or "--1" are then rejected by the
      // strict grammar instead of being quietly made valid by a rewrite.
      pos = stop + 1;
      while (pos < end && isNumberChar(text.charCodeAt(pos))) pos++;
      const token = text.slice(stop, pos);
      if (!printsBack(token)) {
        // A number where a key belongs would become a valid string key once rewritten.
        if (!NUMBER_GRAMMAR.test(token) || isKey(text, pos)) {
          throw syntaxError(text, pos - token.length);
        }
        rewritten += `${text.slice(copied, pos - token.length)}"\\u0000${token}"`;
        copied = pos;
        markers++;
      }
    } else if (code === QUOTE) {
      const quote = stop;
      ANY_STRING.lastIndex = quote;
      if (!ANY_STRING.test(text)) throw syntaxError(text, quote);
      pos = ANY_STRING.lastIndex;
      if (text.startsWith("\\u0000", quote + 1)) {
        // Escaped in case markers end up being used; dropped with the rest if none are.
        rewritten += `${text.slice(copied, quote + 1)}\\u0000`;
        copied = quote + 1;
        escapedStrings = true;
      }
    } else if (stop === pos && stop < end) {
      throw syntaxError(text, pos); // cannot happen: SCAN stops only at a quote or a number
    } else {
      pos = stop;
    }
  }
  if (markers === 0) return JSON.parse(text) as JsonValue;
  rewritten += text.slice(copied);
  let parsed: unknown;
  try {
    parsed = JSON.parse(rewritten);
  } catch {
    // Report the error against the caller's text, not the rewritten one.
    throw syntaxError(text, 0);
  }
  try {
    return revive(parsed, escapedStrings);
  } catch (error) {
    // A number in key position became a valid-looking marker key; report the original text.
    if (error instanceof SyntaxError) throw syntaxError(text, 0);
    throw error;
  }
}

// True when the JS number for `token` prints back as exactly `token` (then a plain number loses
// nothing). Two common losers are decided without converting, which costs ~100ns a token: a
// decimal with a trailing zero ("100.10": JS never prints one) and an integer of 18+ digits
// not ending in 0 (JS prints at most 17 significant digits, then zeros).
function printsBack(token: string): boolean {
  if (!token.includes("e") && !token.includes("E")) {
    const endsInZero = token.charCodeAt(token.length - 1) === 0x30;
    if (token.includes(".")) {
      if (endsInZero) return false;
    } else if (!endsInZero && token.length - (token.charCodeAt(0) === 0x2d ? 1 : 0) >= 18) {
      return false;
    }
  }
  // A token that prints back is a JS number's String(), hence always valid JSON grammar.
  const value = Number(token);
  if (String(value) !== token) return false;
  // An integer beyond 2^53 can print back by luck (1953712585351499800) and still be a 64-bit
  // id whose neighbours cannot: keep every such integer as text so id schemas see all of them
  // the same way.
  return Number.isSafeInteger(value) || !Number.isInteger(value) || token.includes("e");
}

// True when the token ending at `pos` is followed by a colon, i.e. stands in key position.
function isKey(text: string, pos: number): boolean {
  KEY_COLON.lastIndex = pos;
  return KEY_COLON.test(text);
}

function syntaxError(text: string, pos: number): SyntaxError {
  try {
    JSON.parse(text);
  } catch (error) {
    if (error instanceof SyntaxError) return error;
  }
  return new SyntaxError(`Invalid JSON at position ${pos}`);
}

// Turns markers back into JsonNumbers (and escaped strings back into themselves), in place:
// the tree is fresh from JSON.parse and owned by nobody else. Keys need a look only when the
// text had strings starting with \u0000 (`escapedKeys`).
function revive(value: unknown, escapedKeys: boolean): JsonValue {
  if (typeof value === "string")
    return value.charCodeAt(0) === MARK_CODE ? fromMarker(value) : value;
  if (typeof value !== "object" || value === null) return value as JsonValue;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (needsRevive(item)) value[i] = revive(item, escapedKeys);
    }
    return value as JsonValue[];
  }
  const object = value as Record<string, unknown>;
  if (escapedKeys) {
    const keys = Object.keys(object);
    if (keys.some((key) => key.charCodeAt(0) === MARK_CODE)) return reviveRenamed(object, keys);
  }
  // for-in walks V8's cached key list: no array per object (Object.values and Object.keys made
  // two per record, a fifth of what parsing a page of card transactions allocated). A key
  // inherited from a polluted prototype is seen too, and left alone.
  for (const key in object) {
    const item = object[key];
    if (needsRevive(item) && hasOwn.call(object, key))
      setOwn(object, key, revive(item, escapedKeys));
  }
  return object as { [key: string]: JsonValue };
}

function needsRevive(value: unknown): boolean {
  return typeof value === "string"
    ? value.charCodeAt(0) === MARK_CODE
    : typeof value === "object" && value !== null;
}

function fromMarker(value: string): string | JsonNumber {
  // A doubled U+0000 is an escaped real string; a single one holds a number token.
  return value.charCodeAt(1) === MARK_CODE
    ? value.slice(1)
    : new JsonNumber(value.slice(1), CHECKED);
}

// Rebuilds an object that has escaped keys, so key order stays as in the text.
function reviveRenamed(object: Record<string, unknown>, keys: string[]): JsonValue {
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    let name = key;
    if (key.charCodeAt(0) === MARK_CODE) {
      // A number marker in key position means the text had a number as a key: invalid JSON.
      if (key.charCodeAt(1) !== MARK_CODE)
        throw new SyntaxError("Invalid JSON: number used as a key");
      name = key.slice(1);
    }
    setOwn(out, name, revive(object[key], true));
  }
  return out as { [key: string]: JsonValue };
}

// Assignment would call the __proto__ setter on a fresh object; JSON.parse makes an own property.
function setOwn(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(object, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  } else {
    object[key] = value;
  }
}
