/**
 * The answers to a push refused before it is handled — a body over the limit or unreadable, a
 * bad signature or setup, a payload out of contract — written once for the issuing handler and
 * for result notifications (`answerRefusedNotification`), so both are told the same.
 */
import {
  isResponseValidationError,
  isSignatureError,
  type SignatureError,
} from "@merchantkit/core";
import { retryLater, type WebhookAck } from "./acknowledgement";

export interface WebhookResult {
  status: number;
  body: WebhookAck;
}

/** A push whose body is over the handler's limit: answered 413 and not read further. */
export class WebhookBodyTooLargeError extends Error {
  override readonly name = "WebhookBodyTooLargeError";
  constructor(readonly limit: number) {
    super(`body is over the ${limit}-byte limit`);
  }
}

/** A body over `limit` bytes: the service retries (a 413's connection is closed by the sender). */
export function tooLarge(limit: number): WebhookResult {
  return { status: 413, body: retryLater(`body is over the ${limit}-byte limit`) };
}

/** A body that could not be read (the connection broke): the service retries it. */
export function unreadable(): WebhookResult {
  return { status: 400, body: retryLater("body could not be read") };
}

// Why a payload was refused, for the service's log: the fields and rules, never the values.
function refusal(error: unknown): string {
  if (!isResponseValidationError(error)) return "payload does not match the contract";
  const reasons = error.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message));
  const text = `payload does not match the contract: ${reasons.join("; ")}`;
  return text.length > 500 ? `${text.slice(0, 499)}…` : text;
}

/** A payload refused by the contract (or anything else refused unread): 400 with the rules. */
export function payloadRefused(error: unknown): WebhookResult {
  return { status: 400, body: { respCode: "40000", respMsg: refusal(error) } };
}

/**
 * A SignatureError's answer: not UTF-8 400; the merchant's setup (a parsed body, a bad secret)
 * 500, so the service keeps retrying while it is fixed; any other failed check 401.
 */
export function signatureRefused(error: SignatureError): WebhookResult {
  // Bytes that are no UTF-8 text are a malformed body, not a wrong secret: a 401 would send the
  // operator looking at the secret.
  if (error.reason === "not_utf8")
    return { status: 400, body: { respCode: "40000", respMsg: "body is not valid UTF-8" } };
  const status = error.reason === "parsed_body" || error.reason === "bad_secret" ? 500 : 401;
  return {
    status,
    body: {
      respCode: "40100",
      respMsg: error.reason === "parsed_body" ? error.message : "signature verification failed",
    },
  };
}

/**
 * The answer to a payout or profit-share result notification that was not handled, as
 * `createWebhookHandler` answers an issuing push: pass what `constructPayoutResultNotification`
 * or `constructProfitShareResultNotification` threw, a `WebhookBodyTooLargeError` for a body
 * over your limit, or the error reading the body. Over the limit 413 (`50000`); not UTF-8 400
 * (`40000`); a missing or wrong `sign` 401 (`40100`); a parsed body or an empty secret key 500
 * (`40100`, the service keeps retrying while you fix the setup); not JSON, or signed but out of
 * contract, 400 (`40000`, naming the fields and rules, never the values); anything else (the body
 * could not be read) 400 with a retry body (`50000`).
 */
export function answerRefusedNotification(error: unknown): WebhookResult {
  if (error instanceof WebhookBodyTooLargeError) return tooLarge(error.limit);
  if (isSignatureError(error)) return signatureRefused(error);
  if (isResponseValidationError(error)) return payloadRefused(error);
  return unreadable();
}
