/**
 * @merchantkit/payout: the payout process — payment fields, beneficiaries, payers, balances and
 * transfers (remittance, query, voucher, list) — typed both ways on core's transport.
 */

// What a payout caller needs from core, so this package alone is enough to call and to catch.
export {
  type ApiPromise,
  type Environment,
  isApiError,
  isAuthenticationError,
  isConfigurationError,
  isConnectionError,
  isDuplicateError,
  isInsufficientBalanceError,
  isInvalidRequestError,
  isNotFoundError,
  isPermissionError,
  isRateLimitError,
  isRequestValidationError,
  isResponseValidationError,
  isServerError,
  isTimeoutError,
  type Page,
  type PagePromise,
  type RequestOptions,
  type ResponseMeta,
} from "@merchantkit/core";
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
