/**
 * @merchantkit/profit-share: share a completed payment's proceeds, reverse a share, query and
 * wait for the result — typed both ways on core's transport.
 */

// What a profit-share caller needs from core, so this package alone is enough to call and to catch.
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
  isSignatureError,
  isTimeoutError,
  type RequestOptions,
  type ResponseMeta,
} from "@merchantkit/core";
export type { ProfitShareClientOptions } from "./client-options";
export { ProfitShareClient } from "./profit-share-client";
export type * from "./types";
export {
  isFinalProfitShareState,
  type WaitForResultOptions,
} from "./wait-for-result";
