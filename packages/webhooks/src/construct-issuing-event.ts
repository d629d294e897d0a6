/**
 * Verified, losslessly parsed and validated issuing events. Better than a bare constructEvent:
 * the result is a typed union (narrow on `kind`), ids stay exact strings, amounts decimal
 * strings, and an event type this SDK does not know yet is handed over as `kind: "unknown"`
 * rather than thrown away (an unacknowledged push is retried, so dropping it helps nobody).
 */
import {
  type CardOperateEvent,
  type CardTransactionEvent,
  ISSUING_EVENT_TYPES,
  issuingEvent,
  issuingEventEnvelope,
  type UnknownIssuingEvent,
} from "@merchantkit/contract";
import { parseJson, ResponseValidationError, toValidationIssues } from "@merchantkit/core";
import * as v from "valibot";
import {
  createIssuingWebhookVerifier,
  type IssuingWebhookSecrets,
  type WebhookInput,
} from "./verify-issuing-webhook";

export type IssuingWebhookEvent =
  | (CardOperateEvent & { kind: "cardOperate" })
  | (CardTransactionEvent & { kind: "cardTransaction" })
  | (UnknownIssuingEvent & { kind: "unknown" });

const KIND = {
  "issuing.cardOperateEvent": "cardOperate",
  "issuing.cardTransactionEvent": "cardTransaction",
} as const;

const KNOWN: ReadonlySet<string> = new Set(ISSUING_EVENT_TYPES);

function invalid(issues: v.BaseIssue<unknown>[], cause?: unknown): ResponseValidationError {
  return new ResponseValidationError(toValidationIssues(issues), {
    path: "issuing webhook",
    cause,
  });
}

/** Parses and validates a body whose signature was already verified. */
export function parseIssuingEvent(body: string): IssuingWebhookEvent {
  let json: unknown;
  try {
    json = parseJson(body);
  } catch (error) {
    throw new ResponseValidationError([{ path: "", message: "body is not valid JSON" }], {
      path: "issuing webhook",
      cause: error,
      malformed: true,
    });
  }
  const envelope = v.safeParse(issuingEventEnvelope.decode, json);
  if (!envelope.success) throw invalid(envelope.issues);
  if (!KNOWN.has(envelope.output.event_type)) return { ...envelope.output, kind: "unknown" };
  const event = v.safeParse(issuingEvent.decode, json);
  if (!event.success) throw invalid(event.issues);
  return { ...event.output, kind: KIND[event.output.event_type] } as IssuingWebhookEvent;
}

/** Returns a function that verifies and parses one push with the given secrets. */
export function createIssuingEventConstructor(
  opts: IssuingWebhookSecrets,
): (input: WebhookInput) => Promise<IssuingWebhookEvent> {
  const verify = createIssuingWebhookVerifier(opts);
  return async (input) => parseIssuingEvent((await verify(input)).body);
}

/**
 * Verifies the signature and timestamp, then parses and validates the event. Rejects with a
 * SignatureError (reason says which check failed) or a ResponseValidationError.
 */
export async function constructIssuingEvent(
  opts: IssuingWebhookSecrets & WebhookInput,
): Promise<IssuingWebhookEvent> {
  return createIssuingEventConstructor(opts)(opts);
}
