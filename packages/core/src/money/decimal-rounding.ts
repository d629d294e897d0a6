// Exact multiplication, division and rounding of decimal strings, for FX conversion (an amount
// times a rate) and percentage fees. The result is rounded once, at a scale the caller names,
// by a rule the caller names: money code must say how it rounds.
import type { DecimalString } from "./decimal-string";
import { divideRounded, type Rounding } from "./minor-units";
import { fromScaled, toScaled, unitsAt } from "./scaled-decimal";

/** The rounding rules, declared with the division that applies them. */
export type { Rounding } from "./minor-units";

export interface RoundingOptions {
  /** Digits after the decimal point in the result (2 for most currencies). */
  scale: number;
  rounding: Rounding;
}

function checkScale(scale: number): void {
  if (!Number.isInteger(scale) || scale < 0 || scale > 100)
    throw new RangeError("scale must be an integer from 0 to 100");
}

const TEN = 10n;

/** `value` rounded to `scale` decimals ("2.345" → "2.35" halfUp); pads when it has fewer. */
export function roundDecimal(value: DecimalString, opts: RoundingOptions): DecimalString {
  checkScale(opts.scale);
  const x = toScaled(value);
  if (x.scale <= opts.scale) return fromScaled(unitsAt(x, opts.scale), opts.scale);
  return fromScaled(
    divideRounded(x.units, TEN ** BigInt(x.scale - opts.scale), opts.rounding),
    opts.scale,
  );
}

/** `a × b`, exact, then rounded once to `scale`: `multiplyDecimal("100.00", "0.015", { scale: 2, rounding: "halfUp" })` is "1.50". */
export function multiplyDecimal(
  a: DecimalString,
  b: DecimalString,
  opts: RoundingOptions,
): DecimalString {
  checkScale(opts.scale);
  const x = toScaled(a);
  const y = toScaled(b);
  const exactScale = x.scale + y.scale;
  const units = x.units * y.units;
  if (exactScale <= opts.scale)
    return fromScaled(units * TEN ** BigInt(opts.scale - exactScale), opts.scale);
  return fromScaled(
    divideRounded(units, TEN ** BigInt(exactScale - opts.scale), opts.rounding),
    opts.scale,
  );
}

/** `a ÷ b` (b ≠ 0), rounded once to `scale`. */
export function divideDecimal(
  a: DecimalString,
  b: DecimalString,
  opts: RoundingOptions,
): DecimalString {
  checkScale(opts.scale);
  const x = toScaled(a);
  const y = toScaled(b);
  if (y.units === 0n) throw new RangeError("division by zero");
  // a/b = (xu / 10^xs) / (yu / 10^ys); scaled to 10^scale: xu * 10^(scale + ys) / (yu * 10^xs)
  let numerator = x.units * TEN ** BigInt(opts.scale + y.scale);
  let denominator = y.units * TEN ** BigInt(x.scale);
  if (denominator < 0n) {
    numerator = -numerator;
    denominator = -denominator;
  }
  return fromScaled(divideRounded(numerator, denominator, opts.rounding), opts.scale);
}
