/**
 * The payout area: templates and methods, beneficiaries with their review, payers,
 * remittances settling on the virtual clock with ledger postings and notifications, queries,
 * vouchers and balances. `createPayoutArea` is what areas.ts lists.
 */
import type { Area, AreaFactory } from "../runtime/area";
import { beneficiaryHandlers } from "./beneficiary-handlers";
import { payerHandlers } from "./payer-handlers";
import { paymentFieldHandlers } from "./payment-field-handlers";
import { payoutAdmin } from "./payout-admin";
import type { PayoutContext } from "./payout-context";
import { PayoutState } from "./payout-state";
import { txnQueryHandlers } from "./txn-query-handlers";
import { remittanceHandlers } from "./txn-remittance-handler";

export const createPayoutArea: AreaFactory = (runtime): Area => {
  const ctx: PayoutContext = { runtime, state: new PayoutState() };
  const handlers = new Map([
    ...paymentFieldHandlers(),
    ...beneficiaryHandlers(ctx),
    ...payerHandlers(ctx),
    ...remittanceHandlers(ctx),
    ...txnQueryHandlers(ctx),
  ]);
  return {
    name: "payout",
    handlers,
    admin: payoutAdmin(ctx, handlers),
    dump: () => ({
      beneficiaries: [...ctx.state.beneficiaries.values()].map((e) => ({ ...e.record })),
      payers: [...ctx.state.payers.values()].map((e) => ({ ...e.record })),
      payouts: [...ctx.state.payouts.values()].map((e) => ({ ...e.record })),
    }),
  };
};
