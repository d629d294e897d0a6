/**
 * Signs a push the way the service does, for merchants' own tests of their webhook endpoint
 * (the counterpart of stripe-node's generateTestHeaderString).
 */
import { stringifyJson } from "@merchantkit/core";
import { toHex } from "@merchantkit/core/internal";
import { hmacKey } from "./verify-issuing-webhook";
import { type SecretEncoding, webhookKey } from "./webhook-secret";

export interface SignedWebhook {
  /** The exact body text that was signed: send this, byte for byte. */
  body: string;
  headers: { "content-type": string; "x-timestamp": string; "x-signature": string };
}

export async function signIssuingWebhook(opts: {
  /** The event object (written with the lossless stringifier) or the body text itself. */
  body: unknown;
  secret: string;
  /** Unix seconds; default now. */
  timestamp?: number;
  secretEncoding?: SecretEncoding;
}): Promise<SignedWebhook> {
  const body = typeof opts.body === "string" ? opts.body : stringifyJson(opts.body);
  const timestamp = String(opts.timestamp ?? Math.floor(Date.now() / 1000));
  const key = await hmacKey(webhookKey(opts.secret, opts.secretEncoding));
  const signature = toHex(
    await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${timestamp}.${body}`)),
  );
  return {
    body,
    headers: {
      "content-type": "application/json;charset=UTF-8",
      "x-timestamp": timestamp,
      "x-signature": signature,
    },
  };
}
