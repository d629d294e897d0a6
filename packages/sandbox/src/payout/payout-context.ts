/** What every payout handler works with: the shared runtime and the area's own state. */
import type { AccountLedger } from "../runtime/account-ledger";
import type { Runtime } from "../runtime/area";
import type { PayoutState } from "./payout-state";

export interface PayoutContext {
  runtime: Runtime;
  state: PayoutState;
}

/** Drops undefined properties, so records and pushes carry only the fields that are set. */
export function compact<T extends Record<string, unknown>>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (v !== undefined) out[key] = v;
  return out as T;
}

/**
 * The merchant's account, or undefined for a merchant the sandbox does not know: the
 * configured merchant's, or a sub-merchant's own (which starts empty, so a sub-merchant pays
 * out only what was credited to it; the account area lists the same movements).
 */
export function accountOf(ctx: PayoutContext, merchantNo: string): AccountLedger | undefined {
  return ctx.runtime.ledgers.of(merchantNo);
}
