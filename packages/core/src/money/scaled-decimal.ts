// Exact decimal arithmetic as BigInt units at a scale: "12.345" is 12345n at scale 3.
import { assertDecimal, type DecimalString } from "./decimal-string";

export interface ScaledDecimal {
  units: bigint;
  scale: number;
}

const POWERS_OF_TEN: bigint[] = [1n];

function powerOfTen(exponent: number): bigint {
  while (POWERS_OF_TEN.length <= exponent) {
    POWERS_OF_TEN.push((POWERS_OF_TEN[POWERS_OF_TEN.length - 1] as bigint) * 10n);
  }
  return POWERS_OF_TEN[exponent] as bigint;
}

/** Parses a DecimalString (throws TypeError otherwise) into units at its own scale. */
export function toScaled(value: DecimalString): ScaledDecimal {
  assertDecimal(value);
  const dot = value.indexOf(".");
  if (dot === -1) return { units: BigInt(value), scale: 0 };
  return {
    units: BigInt(value.slice(0, dot) + value.slice(dot + 1)),
    scale: value.length - dot - 1,
  };
}

/** The units of `value` expressed at a larger or equal `scale`. */
export function unitsAt(value: ScaledDecimal, scale: number): bigint {
  return value.units * powerOfTen(scale - value.scale);
}

/** Writes units at a scale as a DecimalString, keeping the scale ("3.60", never "-0"). */
export function fromScaled(units: bigint, scale: number): DecimalString {
  const negative = units < 0n;
  let digits = (negative ? -units : units).toString();
  if (scale > 0) {
    digits = digits.padStart(scale + 1, "0");
    digits = `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  }
  return negative ? `-${digits}` : digits;
}
