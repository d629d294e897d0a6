/**
 * The signature covers the exact bytes the service sent, so verification needs the raw body.
 * A parsed object (the usual mistake: express.json() ran first) is refused with a message that
 * says what to do, instead of failing later as a mysterious mismatch.
 */
import { SignatureError } from "@merchantkit/core";

export type RawBody = string | Uint8Array;

// Strict, unlike Buffer#toString: a body that is not valid UTF-8 is refused, not decoded with
// U+FFFD in place of its bad bytes. The signature is checked over the decoded text encoded
// again, so replacing bytes would check it over bytes the service never sent (different bytes
// could verify, and a body signed over its real bytes failed as a bad signature). Strict UTF-8
// round-trips exactly; a leading BOM is kept (it is part of what was signed).
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

// A string holding half of a surrogate pair has no UTF-8 form either.
const LONE_SURROGATE = /\p{Cs}/u;

function notUtf8(): SignatureError {
  return new SignatureError(
    "not_utf8",
    "The webhook body is not valid UTF-8: the service sends JSON in UTF-8, so it is refused unverified.",
  );
}

/** The body as UTF-8 text, exactly as received; a SignatureError "not_utf8" when it is not UTF-8. */
export function rawBodyText(rawBody: unknown): string {
  if (typeof rawBody === "string") {
    if (LONE_SURROGATE.test(rawBody)) throw notUtf8();
    return rawBody;
  }
  if (rawBody instanceof Uint8Array) {
    try {
      return decoder.decode(rawBody);
    } catch {
      throw notUtf8();
    }
  }
  throw new SignatureError(
    "parsed_body",
    'The webhook body must be the raw request body (string, Buffer or Uint8Array), not a parsed object: read it before any JSON body parser runs (e.g. express.raw({ type: "application/json" }) or `await request.text()`).',
  );
}
