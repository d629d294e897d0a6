/**
 * Exact fixed-point arithmetic for FX conversion and fees: decimal strings become BigInt units
 * at a chosen scale, are multiplied and divided with an explicit rounding rule, and go back to
 * strings. Core's money helpers add and compare; conversion needs multiply/divide, which core
 * does not offer, and floats must never touch an amount.
 */

/** "down" toward zero, "up" away from zero, "halfUp" to the nearest (ties away from zero). */
export type Rounding = "down" | "up" | "halfUp";

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** `value` as an integer number of 10^-scale units; refuses to drop non-zero digits. */
export function toUnits(value: string, scale: number): bigint {
  const match = DECIMAL.exec(value);
  if (!match) throw new TypeError(`not a decimal string: ${JSON.stringify(value)}`);
  const [, negative, int = "0", fraction = ""] = match;
  if (/[1-9]/.test(fraction.slice(scale))) {
    throw new RangeError(`${value} has more than ${scale} decimal places`);
  }
  const units = BigInt(int + fraction.slice(0, scale).padEnd(scale, "0"));
  return negative ? -units : units;
}

/** Units back to a decimal string with exactly `scale` decimals ("5584.82", "1.00000000"). */
export function fromUnits(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, "0");
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

/** `numerator / denominator` as an integer, rounded by `rounding`. */
export function divideRounded(numerator: bigint, denominator: bigint, rounding: Rounding): bigint {
  if (denominator === 0n) throw new RangeError("division by zero");
  const n = denominator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const quotient = n / d;
  const remainder = n % d;
  if (remainder === 0n || rounding === "down") return quotient;
  const away = n < 0n ? quotient - 1n : quotient + 1n;
  if (rounding === "up") return away;
  const twice = 2n * (remainder < 0n ? -remainder : remainder);
  return twice >= d ? away : quotient;
}

/** `value` rewritten at exactly `scale` decimals ("100" → "100.00"); exact, never rounds. */
export function atScale(value: string, scale: number): string {
  return fromUnits(toUnits(value, scale), scale);
}

/** `value` at exactly `scale` decimals when that loses nothing, else unchanged (finer postings). */
export function atScaleIfExact(value: string, scale: number): string {
  try {
    return atScale(value, scale);
  } catch {
    return value;
  }
}
