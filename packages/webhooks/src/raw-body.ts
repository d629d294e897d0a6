/**
 * The signature covers the exact bytes the service sent, so verification needs the raw body.
 * A parsed object (the usual mistake: express.json() ran first) is refused with a message that
 * says what to do, instead of failing later as a mysterious mismatch.
 */
import { SignatureError } from "@merchantkit/core";

export type RawBody = string | Uint8Array;

// Like Buffer#toString: keeps a leading BOM (it is part of what was signed) and replaces invalid
// sequences with U+FFFD, so a signature over such a body fails to match instead of throwing.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** The body as UTF-8 text, exactly as received. */
export function rawBodyText(rawBody: unknown): string {
  if (typeof rawBody === "string") return rawBody;
  if (rawBody instanceof Uint8Array) return decoder.decode(rawBody);
  throw new SignatureError(
    "parsed_body",
    'The webhook body must be the raw request body (string, Buffer or Uint8Array), not a parsed object: read it before any JSON body parser runs (e.g. express.raw({ type: "application/json" }) or `await request.text()`).',
  );
}
