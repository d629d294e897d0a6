/**
 * Issuing's money rules on top of core's minor units: currency scales, percentage fees and FX
 * through USD values. Amounts are turned into BigInt units once (core's toMinorUnits), computed
 * on, and written back as decimal strings; every rounding is half away from zero.
 */
import { divideRounded } from "@merchantkit/core";

/** Digits after the decimal point per currency; every other currency has 2. */
const SCALES: Record<string, number> = { JPY: 0, KRW: 0 };

export function currencyScale(currency: string): number {
  return SCALES[currency] ?? 2;
}

const POW10: bigint[] = Array.from({ length: 19 }, (_, i) => 10n ** BigInt(i));

function pow10(n: number): bigint {
  return POW10[n] ?? 10n ** BigInt(n);
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/** The smaller of two unit amounts (Math.min does not take BigInt). */
export function minUnits(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

/** A rate such as "0.015" as units at its own scale: { units: 15n, scale: 3 }. */
export interface Rate {
  units: bigint;
  scale: number;
}

export function parseRate(rate: string): Rate {
  const m = DECIMAL.exec(rate);
  if (!m || m[1] === "-") throw new TypeError(`not a non-negative rate: ${rate}`);
  const fraction = m[3] ?? "";
  return { units: BigInt((m[2] ?? "0") + fraction), scale: fraction.length };
}

/** `units × rate`, rounded half away from zero at the same scale (a percentage fee). */
export function applyRate(units: bigint, rate: Rate): bigint {
  return divideRounded(units * rate.units, pow10(rate.scale), "halfUp");
}

/**
 * Converts minor units between currencies through their USD values (both rates at the same
 * scale, so they cancel): units × from × 10^toScale / (to × 10^fromScale), rounded once.
 */
export function convertUnits(
  units: bigint,
  from: { usd: Rate; scale: number },
  to: { usd: Rate; scale: number },
): bigint {
  const s = Math.max(from.usd.scale, to.usd.scale);
  const fromRate = from.usd.units * pow10(s - from.usd.scale);
  const toRate = to.usd.units * pow10(s - to.usd.scale);
  return divideRounded(units * fromRate * pow10(to.scale), toRate * pow10(from.scale), "halfUp");
}
