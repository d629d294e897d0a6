/**
 * @merchantkit/payout: the payout process — payment fields, beneficiaries, payers, balances and
 * transfers (remittance, query, voucher, list) — typed both ways on core's transport.
 */

// The error guards and result types of core, so this package alone is enough to call and to catch.
export * from "@merchantkit/core/client";
export { BalancesResource } from "./balances";
export { BeneficiariesResource, type FindByCardNumberParams } from "./beneficiaries";
export {
  type BeneficiaryDraft,
  type BeneficiaryPart,
  checkBeneficiaryDraft,
  type DraftReport,
} from "./check-beneficiary-draft";
export type { PayoutClientOptions } from "./client-options";
export { PayersResource } from "./payers";
export { PaymentFieldsResource } from "./payment-fields";
export { PaymentMethodsResource } from "./payment-methods";
export { PayoutClient } from "./payout-client";
export { DEFAULT_PAGE_SIZE } from "./payout-list";
export { TransfersResource } from "./transfers";
export type * from "./types";
