// Amounts as BigInt counts of minor units at a fixed scale ("12.30" at scale 2 is 1230n), for
// code that does many exact operations in a row (FX conversion, fees, generators) and rounds
// explicitly, instead of re-parsing decimal strings at every step.

import type { DecimalString } from "./decimal-string";
import { fromScaled } from "./scaled-decimal";

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** `value` as units of 10^-scale; a RangeError when that would drop a non-zero digit. */
export function toMinorUnits(value: DecimalString, scale: number): bigint {
  const match = DECIMAL.exec(value);
  if (!match) throw new TypeError(`not a decimal string: ${JSON.stringify(value)}`);
  const [, negative, whole = "0", fraction = ""] = match;
  if (/[1-9]/.test(fraction.slice(scale)))
    throw new RangeError(`${value} has more than ${scale} decimal places`);
  const units = BigInt(whole + fraction.slice(0, scale).padEnd(scale, "0"));
  return negative ? -units : units;
}

/** Units back to a decimal string with exactly `scale` decimals (1230n, 2 → "12.30"). */
export function fromMinorUnits(units: bigint, scale: number): DecimalString {
  return fromScaled(units, scale);
}

/**
 * "halfUp": to the nearest, ties away from zero (the usual commercial rule);
 * "halfEven": to the nearest, ties to the even digit (banker's rounding);
 * "down": toward zero (truncate); "up": away from zero.
 */
export type Rounding = "halfUp" | "halfEven" | "down" | "up";

/** `numerator / denominator` as an integer, rounded by `rounding` (see Rounding). */
export function divideRounded(numerator: bigint, denominator: bigint, rounding: Rounding): bigint {
  if (denominator === 0n) throw new RangeError("division by zero");
  const n = denominator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const quotient = n / d; // truncates toward zero
  const remainder = n % d;
  if (remainder === 0n || rounding === "down") return quotient;
  const away = n < 0n ? quotient - 1n : quotient + 1n;
  if (rounding === "up") return away;
  const twice = (remainder < 0n ? -remainder : remainder) * 2n;
  if (twice > d) return away;
  if (twice < d) return quotient;
  if (rounding === "halfUp") return away;
  return quotient % 2n === 0n ? quotient : away;
}
