/**
 * Payout amounts at a currency's scale: "100" is written "100.00" where that loses nothing.
 * The arithmetic itself is core's (toMinorUnits, fromMinorUnits, divideRounded).
 */
import { fromMinorUnits, toMinorUnits } from "@merchantkit/core";

/** `value` rewritten at exactly `scale` decimals ("100" → "100.00"); exact, never rounds. */
export function atScale(value: string, scale: number): string {
  return fromMinorUnits(toMinorUnits(value, scale), scale);
}

/** `value` at exactly `scale` decimals when that loses nothing, else unchanged (finer postings). */
export function atScaleIfExact(value: string, scale: number): string {
  try {
    return atScale(value, scale);
  } catch {
    return value;
  }
}
