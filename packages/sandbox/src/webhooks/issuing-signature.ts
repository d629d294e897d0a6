/**
 * The issuing push signature (contract "Events"): hex HMAC-SHA256 over `${x-timestamp}.${body}`,
 * keyed with the Base64-decoded webhook secret.
 */
import { createHmac } from "node:crypto";

export function issuingSignature(secretBase64: string, timestamp: string, body: string): string {
  return createHmac("sha256", Buffer.from(secretBase64, "base64"))
    .update(`${timestamp}.${body}`)
    .digest("hex");
}
