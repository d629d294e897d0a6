/**
 * @merchantkit/core: what every area package shares, done once — transport with safe retries,
 * the envelope, typed errors, signing, lossless JSON, money, paging and redaction. The root lists
 * what a merchant or an area package author uses; what only core and its sibling packages need
 * (retry predicates, envelope constants, error construction) is in `@merchantkit/core/internal`.
 */
export * from "./errors/api-error";
export * from "./errors/local-errors";
export { isMerchantkitError, MerchantkitError } from "./errors/merchantkit-error";
export * from "./errors/valibot-issues";
export { isJsonNumber, JsonNumber, type JsonValue, jsonNumber } from "./json/json-number";
export * from "./json/parse-json";
export * from "./json/stringify-json";
export * from "./money/check-decimal";
export * from "./money/compare-decimal";
export * from "./money/decimal-arithmetic";
export * from "./money/decimal-from-number-text";
export * from "./money/decimal-rounding";
export * from "./money/decimal-string";
export * from "./money/minor-units";
export type {
  Logger,
  RequestEvent,
  ResponseEvent,
  RetryEvent,
  TransportHooks,
} from "./observability/events";
export * from "./paging/paginate";
export {
  isSensitiveKey,
  REDACTED,
  type RedactOptions,
  redact,
  redactHeaders,
  redactText,
  SENSITIVE_KEYS,
} from "./redaction/redact";
export * from "./schema/json-encoded";
export * from "./schema/wire-decimal";
export * from "./schema/wire-id";
export * from "./signing/inner-first-json";
export * from "./signing/sign";
export * from "./transport/api-promise";
export * from "./transport/area-transport";
export * from "./transport/auth";
export * from "./transport/endpoint";
export type { Envelope } from "./transport/envelope";
export * from "./transport/environment";
export * from "./transport/merchant-no";
export type { RetrySettings } from "./transport/retry-policy";
export * from "./transport/transport";
export * from "./wait/wait-until-final";
