/**
 * Errors the service answered with: an HTTP failure status, or HTTP 200 whose envelope carries a
 * respCode other than "20000". One class per thing a caller can act on differently; the
 * mapping from business codes to these kinds lives with each area's code table in the contract.
 */
import { hasErrorMarker, MerchantkitError, markErrorClass } from "./merchantkit-error";

/** What a failure means for the caller, independent of which area's code produced it. */
export type ApiErrorKind =
  | "authentication"
  | "permission"
  | "invalid_request"
  | "not_found"
  | "duplicate"
  | "insufficient_balance"
  | "rate_limit"
  | "server"
  | "api";

export interface ApiErrorFields {
  message: string;
  /** Business code from the envelope ("40000", "80007"...), or undefined for a bare HTTP failure. */
  respCode?: string | undefined;
  respMsg?: string | null | undefined;
  httpStatus: number;
  /** The service's trace id (response header) or the request's tracing id where the area has one. */
  requestId?: string | undefined;
  /** The idempotency key the request carried, so a caller can retry with the same one. */
  idempotencyKey?: string | undefined;
  /** Endpoint path, e.g. "/card/operate". */
  path?: string | undefined;
  /** The response body with secrets and card data redacted. */
  body?: unknown;
  /** The account area's structured `error` object, when the response had one (redacted). */
  detail?: unknown;
  /** Seconds the service asked us to wait (HTTP 429 Retry-After). */
  retryAfterSeconds?: number | undefined;
}

export class ApiError extends MerchantkitError {
  override readonly name: string = "ApiError";
  readonly kind: ApiErrorKind = "api";
  readonly respCode: string | undefined;
  readonly respMsg: string | null | undefined;
  readonly httpStatus: number;
  readonly requestId: string | undefined;
  readonly idempotencyKey: string | undefined;
  readonly path: string | undefined;
  readonly body: unknown;
  readonly detail: unknown;

  constructor(fields: ApiErrorFields) {
    super(fields.message);
    this.respCode = fields.respCode;
    this.respMsg = fields.respMsg;
    this.httpStatus = fields.httpStatus;
    this.requestId = fields.requestId;
    this.idempotencyKey = fields.idempotencyKey;
    this.path = fields.path;
    this.body = fields.body;
    this.detail = fields.detail;
  }
}
markErrorClass(ApiError, "ApiError");

/** HTTP 401, a rejected `sign`, a wrong ApiKey/apikey or a stale x-timestamp. */
export class AuthenticationError extends ApiError {
  override readonly name = "AuthenticationError";
  override readonly kind = "authentication";
}
markErrorClass(AuthenticationError, "AuthenticationError");

/** HTTP 403 or a business code saying the caller may not do this (IP allowlist, onBehalfOf). */
export class PermissionError extends ApiError {
  override readonly name = "PermissionError";
  override readonly kind = "permission";
}
markErrorClass(PermissionError, "PermissionError");

/** The service rejected a parameter that passed local validation. */
export class InvalidRequestError extends ApiError {
  override readonly name = "InvalidRequestError";
  override readonly kind = "invalid_request";
}
markErrorClass(InvalidRequestError, "InvalidRequestError");

export class NotFoundError extends ApiError {
  override readonly name = "NotFoundError";
  override readonly kind = "not_found";
}
markErrorClass(NotFoundError, "NotFoundError");

/** The idempotency key or a unique field (e-mail, profitReference) was used before. */
export class DuplicateError extends ApiError {
  override readonly name = "DuplicateError";
  override readonly kind = "duplicate";
}
markErrorClass(DuplicateError, "DuplicateError");

export class InsufficientBalanceError extends ApiError {
  override readonly name = "InsufficientBalanceError";
  override readonly kind = "insufficient_balance";
}
markErrorClass(InsufficientBalanceError, "InsufficientBalanceError");

export class RateLimitError extends ApiError {
  override readonly name = "RateLimitError";
  override readonly kind = "rate_limit";
  readonly retryAfterSeconds: number | undefined;

  constructor(fields: ApiErrorFields) {
    super(fields);
    this.retryAfterSeconds = fields.retryAfterSeconds;
  }
}
markErrorClass(RateLimitError, "RateLimitError");

/** HTTP 5xx or a business code for an internal failure of the service. */
export class ServerError extends ApiError {
  override readonly name = "ServerError";
  override readonly kind = "server";
}
markErrorClass(ServerError, "ServerError");

export const isApiError = (e: unknown): e is ApiError => hasErrorMarker(e, "ApiError");
export const isAuthenticationError = (e: unknown): e is AuthenticationError =>
  hasErrorMarker(e, "AuthenticationError");
export const isPermissionError = (e: unknown): e is PermissionError =>
  hasErrorMarker(e, "PermissionError");
export const isInvalidRequestError = (e: unknown): e is InvalidRequestError =>
  hasErrorMarker(e, "InvalidRequestError");
export const isNotFoundError = (e: unknown): e is NotFoundError =>
  hasErrorMarker(e, "NotFoundError");
export const isDuplicateError = (e: unknown): e is DuplicateError =>
  hasErrorMarker(e, "DuplicateError");
export const isInsufficientBalanceError = (e: unknown): e is InsufficientBalanceError =>
  hasErrorMarker(e, "InsufficientBalanceError");
export const isRateLimitError = (e: unknown): e is RateLimitError =>
  hasErrorMarker(e, "RateLimitError");
export const isServerError = (e: unknown): e is ServerError => hasErrorMarker(e, "ServerError");
