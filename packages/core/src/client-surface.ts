/**
 * What a merchant needs from core when it installs one area client: the error guards to catch
 * with and the types of results, lists and options. Every client re-exports exactly this
 * (`export * from "@merchantkit/core/client"`), so all packages offer the same set.
 */
export {
  isApiError,
  isAuthenticationError,
  isDuplicateError,
  isInsufficientBalanceError,
  isInvalidRequestError,
  isNotFoundError,
  isPermissionError,
  isRateLimitError,
  isServerError,
} from "./errors/api-error";
export {
  isAbortedError,
  isConfigurationError,
  isConnectionError,
  isPageDriftError,
  isRequestValidationError,
  isResponseValidationError,
  isSignatureError,
  isTimeoutError,
  isWaitTimeoutError,
} from "./errors/local-errors";
export type { Page, PagePromise } from "./paging/paginate";
export type { ApiPromise, ResponseMeta, WithResponse } from "./transport/api-promise";
export type { Environment } from "./transport/environment";
export type { ClientOptions, RequestOptions } from "./transport/transport";
export type { WaitOptions } from "./wait/wait-until-final";
