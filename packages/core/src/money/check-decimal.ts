// Validation of an amount against a contract rule, with a message that names the rule broken.
import { DECIMAL_PATTERN } from "./decimal-string";

// Any digit but zero: a decimal without one is zero, whatever its sign or scale.
const NONZERO_DIGIT = /[1-9]/;

/** A contract's rule for an amount, e.g. `{ maxScale: 2, sign: "positive" }` for "> 0, 2 dp". */
export interface DecimalRule {
  /** Most digits allowed after the decimal point. */
  maxScale?: number;
  /** "positive": > 0; "nonNegative": >= 0; "any" (default): any sign. */
  sign?: "positive" | "nonNegative" | "any";
}

/**
 * Checks `value` against `rule`. Returns undefined when it is valid, or a message to show after
 * the field name, e.g. "must be greater than 0" or "must have at most 2 decimal places".
 */
export function checkDecimal(value: unknown, rule: DecimalRule = {}): string | undefined {
  if (typeof value === "number" || typeof value === "bigint") {
    return `must be a decimal string such as "100.50", not a ${typeof value} (pass amounts as strings so no digits are lost)`;
  }
  if (typeof value !== "string" || !DECIMAL_PATTERN.test(value)) {
    return 'must be a decimal string such as "100.50"';
  }
  // Read off the text rather than through BigInt: this runs for every amount of every page.
  const dot = value.indexOf(".");
  const scale = dot === -1 ? 0 : value.length - dot - 1;
  if (rule.maxScale !== undefined && scale > rule.maxScale) {
    return rule.maxScale === 0
      ? "must be a whole number (no decimal places)"
      : `must have at most ${rule.maxScale} decimal place${rule.maxScale === 1 ? "" : "s"}`;
  }
  if (rule.sign !== "positive" && rule.sign !== "nonNegative") return undefined;
  const zero = !NONZERO_DIGIT.test(value);
  const negative = !zero && value.charCodeAt(0) === 0x2d;
  if (rule.sign === "positive" && (zero || negative)) return "must be greater than 0";
  if (rule.sign === "nonNegative" && negative) return "must be 0 or greater";
  return undefined;
}
