/**
 * Exact money math for the issuing simulation, in integer minor units (BigInt). Core has exact
 * addition and comparison of decimal strings but no multiplication; fees (a rate of an amount)
 * and FX (an amount times a rate) need it, and the generator needs it fast, so amounts are
 * turned into units once, computed on, and written back as decimal strings.
 */

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

/** "12.3" at scale 2 → 1230n. Throws when the amount has more decimals than the scale. */
export function toUnits(amount: string, scale: number): bigint {
  const m = DECIMAL.exec(amount);
  if (!m) throw new TypeError(`not a decimal string: ${amount}`);
  const fraction = m[3] ?? "";
  if (fraction.length > scale && /[1-9]/.test(fraction.slice(scale))) {
    throw new RangeError(`${amount} has more than ${scale} decimal places`);
  }
  const units = BigInt((m[2] ?? "0") + fraction.slice(0, scale).padEnd(scale, "0"));
  return m[1] === "-" ? -units : units;
}

/** 1230n at scale 2 → "12.30"; zero is never "-0". */
export function fromUnits(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString();
  if (scale === 0) return negative ? `-${digits}` : digits;
  const padded = digits.padStart(scale + 1, "0");
  const text = `${padded.slice(0, -scale)}.${padded.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

/** The smaller of two unit amounts (Math.min does not take BigInt). */
export function minUnits(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

/** n / d rounded half away from zero (d > 0): how amounts are rounded everywhere here. */
export function divRound(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n % d;
  if (r === 0n) return q;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice >= d) return n < 0n ? q - 1n : q + 1n;
  return q;
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
  return divRound(units * rate.units, pow10(rate.scale));
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
  return divRound(units * fromRate * pow10(to.scale), toRate * pow10(from.scale));
}
