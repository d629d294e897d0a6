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
 * The merchant's account, or undefined: runtime.ledger is the configured merchant's account,
 * and a child merchant (onBehalfOf / its own merchantNo) has none in the sandbox (the account
 * area shows it no movements either), so it has no balance to pay out from.
 */
export function accountOf(ctx: PayoutContext, merchantNo: string): AccountLedger | undefined {
  return merchantNo === ctx.runtime.config.merchantNo ? ctx.runtime.ledger : undefined;
}
