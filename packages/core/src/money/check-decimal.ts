// Validation of an amount against a contract rule, with a message that names the rule broken.
import { DECIMAL_PATTERN } from "./decimal-string";
import { toScaled } from "./scaled-decimal";

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
  const { units, scale } = toScaled(value);
  if (rule.maxScale !== undefined && scale > rule.maxScale) {
    return rule.maxScale === 0
      ? "must be a whole number (no decimal places)"
      : `must have at most ${rule.maxScale} decimal place${rule.maxScale === 1 ? "" : "s"}`;
  }
  if (rule.sign === "positive" && units <= 0n) return "must be greater than 0";
  if (rule.sign === "nonNegative" && units < 0n) return "must be 0 or greater";
  return undefined;
}
