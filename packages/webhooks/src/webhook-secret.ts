/**
 * The issuing webhook secret as an HMAC key. The contract says the portal's secret text is
 * Base64-decoded to bytes (a sibling product's docs use the text itself, hence `utf8`). Decoding
 * is strict: Node's Buffer.from(s, "base64") silently skips characters outside the alphabet, so
 * a typo or a pasted prefix would give a different — possibly empty, guessable — key.
 */
import { SignatureError } from "@merchantkit/core";

export type SecretEncoding = "base64" | "utf8";

const BASE64 =
  /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;

export function webhookKey(secret: unknown, encoding: SecretEncoding = "base64"): Buffer {
  if (typeof secret !== "string" || secret.length === 0) {
    throw new SignatureError(
      "bad_secret",
      "The webhook secret is empty: pass the secret from the merchant portal.",
    );
  }
  if (encoding === "utf8") return Buffer.from(secret, "utf8");
  if (encoding !== "base64") {
    throw new SignatureError("bad_secret", 'secretEncoding must be "base64" or "utf8".');
  }
  if (!BASE64.test(secret)) {
    throw new SignatureError(
      "bad_secret",
      'The webhook secret is not valid Base64 (only A–Z, a–z, 0–9, "+", "/" and "=" padding; no spaces or prefixes). If the portal secret is plain text, pass secretEncoding: "utf8".',
    );
  }
  const key = Buffer.from(secret, "base64");
  if (key.length === 0)
    throw new SignatureError("bad_secret", "The webhook secret decodes to an empty key.");
  return key;
}
