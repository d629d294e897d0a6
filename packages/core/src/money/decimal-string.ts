// The public form of money: amounts are plain decimal strings ("100.50"), never JS numbers.

/**
 * An amount as a plain decimal string: optional "-", digits, optional "." and digits, e.g.
 * `"100.50"`, `"-3.2"`, `"0"`. No exponent, no "+", no leading "." and no leading zeros, so
 * every DecimalString is also a valid JSON number token and can go on the wire unchanged.
 * Floating point never touches it; arithmetic is exact (see addDecimal and friends).
 */
export type DecimalString = string;

/** Matches a DecimalString. */
export const DECIMAL_PATTERN: RegExp = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

/** True when `value` is a string in DecimalString form. */
export function isDecimalString(value: unknown): value is DecimalString {
  return typeof value === "string" && DECIMAL_PATTERN.test(value);
}

/** Number of digits after the decimal point: `decimalScale("1.50") === 2`. */
export function decimalScale(value: DecimalString): number {
  assertDecimal(value);
  const dot = value.indexOf(".");
  return dot === -1 ? 0 : value.length - dot - 1;
}

/** Throws a TypeError unless `value` is a DecimalString; used by every money function. */
export function assertDecimal(value: unknown): asserts value is DecimalString {
  if (!isDecimalString(value)) {
    const shown = typeof value === "string" ? JSON.stringify(value) : `a ${typeof value}`;
    throw new TypeError(`expected a decimal string such as "100.50", got ${shown}`);
  }
}
