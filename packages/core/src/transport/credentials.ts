/**
 * The credentials a call was sent with, so an error built from its answer can blank them
 * wherever the service (or a proxy) echoed them: the sensitive headers the request carried
 * (ApiKey, apikey) and, for a signed call, the secret its `sign` was computed with, which
 * signAuth notes against the call's body (the one object both it and the attempts see). Core's
 * own: not exported to merchants.
 */
import { isSensitiveKey } from "../redaction/redact";

const signingSecrets = new WeakMap<object, string>();

/** Called by the signing strategy with the body it signs. */
export function noteSigningSecret(body: object, secret: string): void {
  signingSecrets.set(body, secret);
}

/** The credentials an attempt carried: sensitive header values, and the signing secret. */
export function credentialsOf(request: unknown, body: object): string[] {
  const out: string[] = [];
  if (request instanceof Request) {
    for (const [name, value] of request.headers) if (isSensitiveKey(name)) out.push(value);
  }
  const secret = signingSecrets.get(body);
  if (secret !== undefined) out.push(secret);
  return out;
}
