/** The payout tests' common start: an area on a test runtime with one payer, and a remittance body. */
import { acctAddPayer, beneficiaryAdd } from "@merchantkit/contract";
import { createPayoutArea } from "../payout/payout-area";
import { endpointCaller, testRuntime } from "./area-runtime";
import { individualPayer, usLocalPerson } from "./payout-fixtures";

/** reviewDelayMs 5 s, settleDelayMs 2 s, the clock frozen at 2026-06-22 10:00:00 UTC. */
export function setup(balances?: Record<string, string>) {
  const t = testRuntime({
    reviewDelayMs: 5_000,
    settleDelayMs: 2_000,
    ...(balances ? { balances } : {}),
  });
  const area = createPayoutArea(t.runtime);
  const call = endpointCaller(area, t.runtime);
  const payerId = call(acctAddPayer, individualPayer());
  return { ...t, area, call, payerId };
}

export const remittance = (over: Record<string, unknown>) => ({
  sourceCurrency: "USD",
  targetCurrency: "USD",
  transactionPurpose: "salary",
  chargeFlag: "N",
  sourceAmount: "100.00",
  ...over,
});

/** A beneficiary that has passed review, and the setup around it. */
export function passed(benef: object = usLocalPerson(), balances?: Record<string, string>) {
  const s = setup(balances);
  const { beneficiaryId } = s.call(beneficiaryAdd, benef);
  s.advance(5_000);
  return { ...s, beneficiaryId };
}
