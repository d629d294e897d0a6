/**
 * The issuing webhook secret as an HMAC key. The contract says the portal's secret text is
 * Base64-decoded to bytes (a sibling product's docs use the text itself, hence `utf8`). Decoding
 * is strict: lenient decoders (Node's Buffer.from(s, "base64")) silently skip characters outside
 * the alphabet, so a typo or a pasted prefix would give a different — possibly empty, guessable —
 * key. Web-standard only (atob, TextEncoder): the key is used with Web Crypto on every runtime.
 */
import { SignatureError } from "@merchantkit/core";

export type SecretEncoding = "base64" | "utf8";

const BASE64 =
  /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/;

export function webhookKey(secret: unknown, encoding: SecretEncoding = "base64"): Uint8Array {
  if (typeof secret !== "string" || secret.length === 0) {
    throw new SignatureError(
      "bad_secret",
      "The webhook secret is empty: pass the secret from the merchant portal.",
    );
  }
  if (encoding === "utf8") return new TextEncoder().encode(secret);
  if (encoding !== "base64") {
    throw new SignatureError("bad_secret", 'secretEncoding must be "base64" or "utf8".');
  }
  if (!BASE64.test(secret)) {
    throw new SignatureError(
      "bad_secret",
      'The webhook secret is not valid Base64 (only A–Z, a–z, 0–9, "+", "/" and "=" padding; no spaces or prefixes). If the portal secret is plain text, pass secretEncoding: "utf8".',
    );
  }
  // atob wants padding; the pattern above also accepts unpadded text, so pad it here.
  const binary = atob(secret.padEnd(Math.ceil(secret.length / 4) * 4, "="));
  const key = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  if (key.length === 0)
    throw new SignatureError("bad_secret", "The webhook secret decodes to an empty key.");
  return key;
}
