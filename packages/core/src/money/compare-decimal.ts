// Exact comparison of decimal strings by value, whatever their scales.
import type { DecimalString } from "./decimal-string";
import { toScaled, unitsAt } from "./scaled-decimal";

/** -1, 0 or 1 as `a` is less than, equal to or greater than `b`; "1.50" equals "1.5". */
export function compareDecimal(a: DecimalString, b: DecimalString): -1 | 0 | 1 {
  const x = toScaled(a);
  const y = toScaled(b);
  const scale = Math.max(x.scale, y.scale);
  const left = unitsAt(x, scale);
  const right = unitsAt(y, scale);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Numeric equality: `decimalEquals("1.50", "1.5") === true`, `decimalEquals("-0", "0")` too. */
export function decimalEquals(a: DecimalString, b: DecimalString): boolean {
  return compareDecimal(a, b) === 0;
}
