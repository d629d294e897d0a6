// Exact addition and subtraction of decimal strings. A result keeps the larger scale of its
// inputs ("1.50" + "2.1" is "3.60"), as a ledger shows it.
import type { DecimalString } from "./decimal-string";
import { fromScaled, toScaled, unitsAt } from "./scaled-decimal";

/** `a + b`, exactly: `addDecimal("0.1", "0.2") === "0.3"`. */
export function addDecimal(a: DecimalString, b: DecimalString): DecimalString {
  const x = toScaled(a);
  const y = toScaled(b);
  const scale = Math.max(x.scale, y.scale);
  return fromScaled(unitsAt(x, scale) + unitsAt(y, scale), scale);
}

/** `a - b`, exactly. */
export function subtractDecimal(a: DecimalString, b: DecimalString): DecimalString {
  const x = toScaled(a);
  const y = toScaled(b);
  const scale = Math.max(x.scale, y.scale);
  return fromScaled(unitsAt(x, scale) - unitsAt(y, scale), scale);
}

/** `-a`, keeping the scale; zero stays unsigned ("0.00", never "-0.00"). */
export function negateDecimal(a: DecimalString): DecimalString {
  const x = toScaled(a);
  return fromScaled(-x.units, x.scale);
}

/** The exact sum of a list, at the largest scale in it; "0" for an empty list. */
export function sumDecimals(values: readonly DecimalString[]): DecimalString {
  const parsed = values.map(toScaled);
  let scale = 0;
  for (const value of parsed) scale = Math.max(scale, value.scale);
  let total = 0n;
  for (const value of parsed) total += unitsAt(value, scale);
  return fromScaled(total, scale);
}
