/**
 * The sandbox's deterministic FX table: the USD value of one unit of each currency, as decimal
 * strings. Cross rates go through USD with exact integer math (money-units.ts), so a card
 * transaction in EUR on a USD card always converts to the same cents.
 */
import { convertUnits, currencyScale, parseRate, type Rate } from "./money-units";

export const USD_VALUE: Readonly<Record<string, string>> = {
  USD: "1",
  EUR: "1.0850",
  GBP: "1.2700",
  SGD: "0.7400",
  HKD: "0.1280",
  JPY: "0.006700",
  AUD: "0.6600",
  CAD: "0.7300",
  CNY: "0.1380",
};

interface CurrencyInfo {
  usd: Rate;
  scale: number;
}

const INFO = new Map<string, CurrencyInfo>(
  Object.entries(USD_VALUE).map(([code, usd]) => [
    code,
    { usd: parseRate(usd), scale: currencyScale(code) },
  ]),
);

export function isKnownCurrency(currency: string): boolean {
  return INFO.has(currency);
}

/** Minor units of `from` → minor units of `to` (same currency: unchanged). */
export function convertMinor(units: bigint, from: string, to: string): bigint {
  if (from === to) return units;
  const a = INFO.get(from);
  const b = INFO.get(to);
  if (!a || !b) throw new RangeError(`no FX rate for ${from} → ${to}`);
  return convertUnits(units, a, b);
}
