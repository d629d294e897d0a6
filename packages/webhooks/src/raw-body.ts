/**
 * The signature covers the exact bytes the service sent, so verification needs the raw body.
 * A parsed object (the usual mistake: express.json() ran first) is refused with a message that
 * says what to do, instead of failing later as a mysterious mismatch.
 */
import { SignatureError } from "@merchantkit/core";

export type RawBody = string | Uint8Array;

/** The body as UTF-8 text, exactly as received. */
export function rawBodyText(rawBody: unknown): string {
  if (typeof rawBody === "string") return rawBody;
  if (rawBody instanceof Uint8Array)
    return Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength).toString("utf8");
  throw new SignatureError(
    "parsed_body",
    'The webhook body must be the raw request body (string, Buffer or Uint8Array), not a parsed object: read it before any JSON body parser runs (e.g. express.raw({ type: "application/json" }) or `await request.text()`).',
  );
}
