/** Account-area request fields shared by both endpoints, and the timestamp format of responses. */
import * as c from "../codec";

/**
 * requestId: "idempotency control and tracing". The contract gives no length; 64 matches the
 * issuing area's clientRequestId and holds the transport's generated UUID (ASSUMPTIONS.md).
 */
export const ACCOUNT_REQUEST_ID_MAX_LENGTH = 64;
export const accountRequestId = c.string({
  nonEmpty: true,
  maxLength: ACCOUNT_REQUEST_ID_MAX_LENGTH,
});

/** Sub-merchant or child customer the parent acts for; sent in the body by the transport. */
export const accountOnBehalfOf = c.optional(c.string({ nonEmpty: true }));

/**
 * An ISO 8601 time in a response (balanceUpdDate, globalActiveTime). Only the date-and-time
 * head is checked, so any zone or fraction form the service picks still reads.
 */
export const accountIsoTimestamp = c.string({
  pattern: {
    regex: /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/,
    message: "must be an ISO 8601 timestamp such as 2026-04-28T10:00:00Z",
  },
});
