/**
 * @merchantkit/issuing: cardholders, cards (create, deposit, freeze, unfreeze, terminate,
 * return balance), operate records, card transactions and 3DS deliveries, over core's
 * transport: checked against the contract before sending, keyed writes retried safely, every
 * list awaitable for one page and iterable with `for await`.
 */
export type {
  ApiPromise,
  Environment,
  Page,
  PagePromise,
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
  isInsufficientBalanceError,
  isInvalidRequestError,
  isNotFoundError,
  isPermissionError,
  isRateLimitError,
  isRequestValidationError,
  isResponseValidationError,
  isServerError,
  isTimeoutError,
} from "@merchantkit/core";
export { Cardholders } from "./cardholders";
export { Cards } from "./cards";
export type { IssuingClientOptions } from "./client-options";
export { IssuingClient } from "./issuing-client";
export { DEFAULT_PAGE_SIZE } from "./issuing-list";
export { OperateRecords } from "./operate-records";
export { ThreeDs } from "./three-ds";
export { CardTransactions } from "./transactions";
export type * from "./types";
