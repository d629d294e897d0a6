/**
 * @merchantkit/account: account balance changes by serviceIds and Global Account details,
 * over core's transport with `apikey` + `x-timestamp` set on every attempt.
 */
export type {
  ApiPromise,
  Environment,
  RequestOptions,
  ResponseMeta,
  WithResponse,
} from "@merchantkit/core";
export {
  isApiError,
  isAuthenticationError,
  isConfigurationError,
  isConnectionError,
  isDuplicateError,
  isInvalidRequestError,
  isNotFoundError,
  isPermissionError,
  isRateLimitError,
  isRequestValidationError,
  isResponseValidationError,
  isServerError,
  isTimeoutError,
} from "@merchantkit/core";
export { AccountClient } from "./account-client";
export { accountErrorOf } from "./account-error";
export type { AccountClientOptions } from "./client-options";
export { GlobalAccounts } from "./global-accounts";
export { DEFAULT_CONCURRENCY } from "./list-by-service-ids";
export { AccountTransactions } from "./transactions";
export type * from "./types";
