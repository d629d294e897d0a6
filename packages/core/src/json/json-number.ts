// A JSON number kept as its exact source text, so 64-bit ids and decimal amounts survive a
// parse → stringify round trip digit for digit (Node 20's JSON.parse has no source access).

const BRAND = Symbol.for("merchantkit.JsonNumber");

/** The JSON number grammar (RFC 8259 §6): no "+", no leading zeros, no bare ".", no NaN. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * Passed by parseJson for tokens it has matched against the number grammar itself. Not
 * exported from the package: only core's own parser can skip the check.
 */
export const CHECKED: unique symbol = Symbol("merchantkit.JsonNumber.checked");

/** The exact text of a JSON number token; `stringifyJson` writes it back as a bare number. */
export class JsonNumber {
  readonly text: string;

  constructor(text: string, checked?: typeof CHECKED) {
    // parseJson has matched the token against the grammar already; everyone else is checked.
    if (checked !== CHECKED && (typeof text !== "string" || !JSON_NUMBER.test(text))) {
      throw new TypeError(`JsonNumber: ${JSON.stringify(String(text))} is not a JSON number`);
    }
    this.text = text;
  }

  toString(): string {
    return this.text;
  }

  /**
   * `JSON.stringify` writes the exact digits as a string: it cannot write a number a double
   * cannot hold (without this it wrote `{"text":"…"}`). `stringifyJson` writes them as a bare
   * number, and signing signs them as one; both read the text before looking for toJSON.
   */
  toJSON(): string {
    return this.text;
  }
}

// The brand lives on the prototype under a registered symbol, so isJsonNumber recognises
// instances made by another installed copy of this package, where instanceof would fail.
Object.defineProperty(JsonNumber.prototype, BRAND, { value: true });
// Readable in console.log and test diffs instead of `JsonNumber { text: '…' }`.
Object.defineProperty(JsonNumber.prototype, Symbol.for("nodejs.util.inspect.custom"), {
  value(this: JsonNumber) {
    return `JsonNumber(${this.text})`;
  },
});

/** True for a JsonNumber from any copy of this package. */
export function isJsonNumber(value: unknown): value is JsonNumber {
  // instanceof first: the common case (this copy's own instances) without the symbol lookup.
  if (value instanceof JsonNumber) return true;
  return (
    typeof value === "object" && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true
  );
}

/** Shorthand for `new JsonNumber(text)`; throws TypeError when text is not a JSON number. */
export function jsonNumber(text: string): JsonNumber {
  return new JsonNumber(text);
}

/** A JSON value as parseJson returns it: numbers that would lose digits are JsonNumbers. */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | JsonNumber
  | JsonValue[]
  | { [key: string]: JsonValue };
