/**
 * Verification of issuing pushes (contract, "Events"): x-signature is the hex HMAC-SHA256 over
 * `${x-timestamp}.${raw body}`, keyed with the webhook secret. Compared in constant time and
 * case-insensitively, against every configured secret (rotation), and the timestamp must be
 * within the tolerance both ways: the service retries for about 150 s, and a replay of an old
 * push must not be accepted forever. Web Crypto HMAC, so it runs on Node, Bun, Deno and Workers;
 * its digest is asynchronous, hence verification returns a promise.
 */
import { ISSUING_WEBHOOK_HEADERS } from "@merchantkit/contract";
import { SignatureError } from "@merchantkit/core";
import { constantTimeEqual } from "@merchantkit/core/internal";
import { type HeaderSource, readHeader } from "./headers";
import { rawBodyText } from "./raw-body";
import { type SecretEncoding, webhookKey } from "./webhook-secret";

export const DEFAULT_TOLERANCE_SECONDS = 300;

export interface IssuingWebhookSecrets {
  /** The webhook secret from the merchant portal. */
  secret?: string | undefined;
  /** Several secrets during a rotation: a push signed with any of them verifies. */
  secrets?: readonly string[] | undefined;
  /** How the secret text becomes the HMAC key. Default "base64", as the contract says. */
  secretEncoding?: SecretEncoding | undefined;
  /** Accepted distance of x-timestamp from now, past or future. Default 300 s. */
  toleranceSeconds?: number | undefined;
  /** Clock in ms, for tests. */
  now?: (() => number) | undefined;
}

export interface WebhookInput {
  /**
   * The body exactly as received: string, Buffer, Uint8Array, ArrayBuffer or another
   * ArrayBufferView.
   */
  rawBody: unknown;
  headers: HeaderSource;
}

export interface VerifiedWebhook {
  /** The raw body as text, for parsing. */
  body: string;
  /** x-timestamp, Unix seconds. */
  timestamp: number;
}

const SIGNATURE = /^[0-9a-fA-F]{64}$/;
const TIMESTAMP = /^\d{1,12}$/;

const encoder = new TextEncoder();

type HmacKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

/** An HMAC-SHA256 key for Web Crypto; imported once per secret, on first use. */
export function hmacKey(key: Uint8Array): Promise<HmacKey> {
  return crypto.subtle.importKey(
    "raw",
    key as Uint8Array<ArrayBuffer>,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
}

function hexBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++)
    bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/** Decodes the secrets once; returns a function that verifies one push. */
export function createIssuingWebhookVerifier(
  opts: IssuingWebhookSecrets,
): (input: WebhookInput) => Promise<VerifiedWebhook> {
  const list = opts.secrets ?? (opts.secret === undefined ? [] : [opts.secret]);
  if (list.length === 0)
    throw new SignatureError(
      "bad_secret",
      "Pass the webhook secret as `secret` (or `secrets` during a rotation).",
    );
  const rawKeys = list.map((s) => webhookKey(s, opts.secretEncoding));
  let keys: Promise<HmacKey[]> | undefined;
  const tolerance = opts.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!Number.isFinite(tolerance) || tolerance < 0)
    throw new RangeError("toleranceSeconds must be a non-negative number");
  const now = opts.now ?? Date.now;

  return async ({ rawBody, headers }) => {
    const body = rawBodyText(rawBody);
    const timestampText = readHeader(headers, ISSUING_WEBHOOK_HEADERS.timestamp);
    const signatureText = readHeader(headers, ISSUING_WEBHOOK_HEADERS.signature);
    if (timestampText === undefined || signatureText === undefined) {
      throw new SignatureError(
        "missing_header",
        `The push has no ${timestampText === undefined ? "x-timestamp" : "x-signature"} header.`,
      );
    }
    const timestampTrimmed = timestampText.trim();
    if (!TIMESTAMP.test(timestampTrimmed)) {
      throw new SignatureError(
        "malformed_header",
        "x-timestamp must be Unix seconds (digits only).",
      );
    }
    const signatureTrimmed = signatureText.trim();
    if (!SIGNATURE.test(signatureTrimmed)) {
      throw new SignatureError(
        "malformed_header",
        "x-signature must be 64 hex characters (HMAC-SHA256).",
      );
    }
    const given = hexBytes(signatureTrimmed);
    const signed = encoder.encode(`${timestampTrimmed}.${body}`);
    keys ??= Promise.all(rawKeys.map(hmacKey));
    let matched = false;
    for (const key of await keys) {
      const expected = new Uint8Array(await crypto.subtle.sign("HMAC", key, signed));
      // Every key is tried even after a match, so timing does not tell which secret matched.
      if (constantTimeEqual(expected, given)) matched = true;
    }
    if (!matched) {
      throw new SignatureError(
        "no_match",
        "The signature does not match: check the webhook secret and that the body is passed exactly as received.",
      );
    }
    const timestamp = Number(timestampTrimmed);
    const age = Math.abs(now() / 1000 - timestamp);
    if (age > tolerance) {
      throw new SignatureError(
        "stale_timestamp",
        `x-timestamp is ${Math.round(age)} s away from now (tolerance ${tolerance} s): a replayed or delayed push.`,
      );
    }
    return { body, timestamp };
  };
}

/** Verifies one push; rejects with a SignatureError whose `reason` names the failed check. */
export async function verifyIssuingWebhook(
  opts: IssuingWebhookSecrets & WebhookInput,
): Promise<VerifiedWebhook> {
  return createIssuingWebhookVerifier(opts)(opts);
}
