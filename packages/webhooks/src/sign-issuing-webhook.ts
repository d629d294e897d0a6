/**
 * Signs a push the way the service does, for merchants' own tests of their webhook endpoint
 * (the counterpart of stripe-node's generateTestHeaderString). An event object is written in
 * the service's wire form, through the contract's event codecs, exactly as the sandbox pushes
 * it: ids and amounts as bare JSON numbers (`"cardId":1953712585351499778,"cardAmount":12.30`),
 * never the SDK's strings, so a test of the endpoint sees what production will send.
 */
import {
  ISSUING_EVENT_DEFAULT_VERSION,
  ISSUING_EVENT_TYPES,
  issuingEvent,
  issuingEventEnvelope,
} from "@merchantkit/contract";
import { RequestValidationError, stringifyJson, toValidationIssues } from "@merchantkit/core";
import { toHex } from "@merchantkit/core/internal";
import * as v from "valibot";
import type { IssuingWebhookEvent } from "./construct-issuing-event";
import { hmacKey } from "./verify-issuing-webhook";
import { type SecretEncoding, webhookKey } from "./webhook-secret";

export interface SignedWebhook {
  /** The exact body text that was signed: send this, byte for byte. */
  body: string;
  headers: { "content-type": string; "x-timestamp": string; "x-signature": string };
}

/**
 * An issuing event in the SDK's form, as `constructIssuingEvent` answers it or as a test builds
 * it: ids and amounts as strings. `kind` is optional and never written; `version` is optional
 * and written as "1.0" (the default subscription's version, which the sandbox sends) when absent.
 */
export type SignableIssuingEvent = Signable<IssuingWebhookEvent>;
type Signable<E> = E extends { kind: infer K }
  ? Omit<E, "kind" | "version"> & { kind?: K; version?: string | null }
  : never;

const KNOWN: ReadonlySet<string> = new Set(ISSUING_EVENT_TYPES);

/**
 * The wire text of an event: a known event_type through its codec (every field checked as a
 * push is), any other through the envelope with `data` written as it is.
 */
function issuingEventBody(event: SignableIssuingEvent): string {
  if (typeof event !== "object" || event === null || Array.isArray(event))
    throw new RequestValidationError(
      [{ path: "", message: "must be an issuing event object or the body text (a string)" }],
      { path: "signIssuingWebhook" },
    );
  const { kind: _kind, version, ...rest } = event as SignableIssuingEvent & { kind?: unknown };
  const app = { ...rest, version: version || ISSUING_EVENT_DEFAULT_VERSION };
  const known = typeof app.event_type === "string" && KNOWN.has(app.event_type);
  const wire = v.safeParse(known ? issuingEvent.encode : issuingEventEnvelope.encode, app);
  if (!wire.success)
    throw new RequestValidationError(
      [
        ...toValidationIssues(wire.issues),
        // Tells how to sign what the contract does not describe (a field added since, a test of
        // the endpoint's 400 answer): as text.
        { path: "", message: "to sign any other body, pass its text as a string" },
      ],
      { path: "signIssuingWebhook" },
    );
  return stringifyJson(wire.output);
}

export async function signIssuingWebhook(opts: {
  /**
   * The event (`constructIssuingEvent`'s result or one built the same way: ids and amounts as
   * strings), written in the service's wire form; or the body text itself, signed as it is.
   */
  body: SignableIssuingEvent | string;
  secret: string;
  /** Unix seconds; default now. */
  timestamp?: number;
  secretEncoding?: SecretEncoding;
}): Promise<SignedWebhook> {
  const body = typeof opts.body === "string" ? opts.body : issuingEventBody(opts.body);
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
