// Generated merchants fund their account before it runs dry, as a real one would: a TOP_UP
// posting (its own serviceId) just before the charge it would not cover, in whole steps of
// 100,000 currency units. Both generators (cards, payouts) fund this way, so they run on one
// sandbox with their documented volumes.
import { fromMinorUnits, toMinorUnits } from "@merchantkit/core";
import { currencyScale } from "../issuing/money-units";
import type { Runtime } from "../runtime/area";

const FUNDING_STEP = 100_000n;

/** Credits a TOP_UP at `at` when the balance in `currency` is below `needed` (a decimal). */
export function topUpIfShort(
  runtime: Pick<Runtime, "ledger" | "ids">,
  currency: string,
  needed: string,
  at: number,
): void {
  const scale = currencyScale(currency);
  const total = toMinorUnits(needed, scale);
  const balance = toMinorUnits(runtime.ledger.balance(currency), scale);
  if (balance >= total) return;
  const step = FUNDING_STEP * 10n ** BigInt(scale);
  const amount = ((total - balance) / step + 1n) * step;
  runtime.ledger.credit({
    serviceId: runtime.ids.next(),
    currency,
    amount: fromMinorUnits(amount, scale),
    businessType: "TOP_UP",
    remark: "merchant account funding",
    at,
  });
}
