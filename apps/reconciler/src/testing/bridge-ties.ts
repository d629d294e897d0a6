// Test support for the close checks: the bridge's money columns, and decimal sums and equality
// that read a missing figure as zero.
import { compareDecimal, sumDecimals } from "@merchantkit/core";

/** Two decimal figures equal to the cent (a missing one is 0). */
export const sameAmount = (a: string | undefined, b: string | undefined) =>
  compareDecimal(a ?? "0", b ?? "0") === 0;

/** The money columns of finance_currency_bridge / finance_entity_currency_bridge. */
export const BRIDGE_COLUMNS = [
  "provider_total",
  "ledger_total",
  "difference",
  "timing",
  "open_breaks",
  "pending",
  "accepted",
  "unexplained",
] as const;
export type BridgeColumn = (typeof BRIDGE_COLUMNS)[number];

/** Per currency, the sum of `amount` over `rows` (decimal text). */
export function sumByCurrency<T>(
  rows: T[],
  currency: (r: T) => string,
  amount: (r: T) => string,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of rows) out.set(currency(r), sumDecimals([out.get(currency(r)) ?? "0", amount(r)]));
  return out;
}
