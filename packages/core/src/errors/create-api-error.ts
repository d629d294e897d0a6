/**
 * An ApiError of the class for `kind`: how read-response.ts turns a failed answer into the error
 * a caller can narrow on. Core's own; not exported to merchants.
 */
import {
  ApiError,
  type ApiErrorFields,
  type ApiErrorKind,
  AuthenticationError,
  DuplicateError,
  InsufficientBalanceError,
  InvalidRequestError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServerError,
} from "./api-error";

const classes = {
  authentication: AuthenticationError,
  permission: PermissionError,
  invalid_request: InvalidRequestError,
  not_found: NotFoundError,
  duplicate: DuplicateError,
  insufficient_balance: InsufficientBalanceError,
  rate_limit: RateLimitError,
  server: ServerError,
  api: ApiError,
} satisfies Record<ApiErrorKind, new (fields: ApiErrorFields) => ApiError>;

export function createApiError(kind: ApiErrorKind, fields: ApiErrorFields): ApiError {
  return new classes[kind](fields);
}
