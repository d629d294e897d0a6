/**
 * The signature covers the exact bytes the service sent, so verification needs the raw body.
 * A parsed object (the usual mistake: express.json() ran first) is refused with a message that
 * says what to do, instead of failing later as a mysterious mismatch.
 */
import { SignatureError } from "@merchantkit/core";

/**
 * The raw body: text, or its bytes in any binary form — a Buffer or Uint8Array, the ArrayBuffer
 * that `await request.arrayBuffer()` gives, or any other ArrayBufferView (a DataView, a typed
 * array over part of a larger buffer: only the bytes it views are the body).
 */
export type RawBody = string | Uint8Array | ArrayBuffer | ArrayBufferView;

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
  const bytes = rawBytes(rawBody);
  if (bytes !== undefined) {
    try {
      return decoder.decode(bytes);
    } catch {
      throw notUtf8();
    }
  }
  throw new SignatureError(
    "parsed_body",
    'The webhook body must be the raw request body (string, Buffer, Uint8Array or ArrayBuffer), not a parsed object: read it before any JSON body parser runs (e.g. express.raw({ type: "application/json" }), `await request.text()` or `await request.arrayBuffer()`).',
  );
}

/**
 * The bytes of a binary body, viewed in place (not copied); undefined for anything else. By
 * tag and ArrayBuffer.isView rather than instanceof, so a buffer made in another realm (a vm
 * context, a test environment's globals) is bytes too.
 */
function rawBytes(rawBody: unknown): Uint8Array | undefined {
  if (rawBody instanceof Uint8Array) return rawBody;
  if (ArrayBuffer.isView(rawBody))
    return new Uint8Array(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  if (isArrayBuffer(rawBody)) return new Uint8Array(rawBody);
  return undefined;
}

/** True for an ArrayBuffer (of any realm). */
function isArrayBuffer(value: unknown): value is ArrayBuffer {
  return Object.prototype.toString.call(value) === "[object ArrayBuffer]";
}

/** True for a body given as bytes: a Buffer, any ArrayBufferView, an ArrayBuffer. */
export function isBinaryBody(value: unknown): value is Uint8Array | ArrayBuffer | ArrayBufferView {
  return value instanceof Uint8Array || ArrayBuffer.isView(value) || isArrayBuffer(value);
}
