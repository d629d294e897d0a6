/**
 * The Outbox the areas push through (runtime/outbox.ts): it turns an app-form payload into the
 * exact wire body with the contract's codecs, signs what the contract says is signed and hands
 * the text to the pusher. Issuing events get a fresh 64-bit request_id and the virtual clock's
 * time; payout and profit-share results get `sign` over every other wire field (provider-notes
 * §1). A payload that breaks the contract is a sandbox bug: it is logged to stderr and recorded
 * as a failed delivery, so tests that look at deliveries see it.
 */
import {
  cardOperateEvent,
  cardTransactionEvent,
  ISSUING_EVENT_DEFAULT_VERSION,
  payoutResultNotification,
  payoutResultNotificationUnsignedFields,
  profitShareResultNotification,
} from "@merchantkit/contract";
import { stringifyJson, toValidationIssues } from "@merchantkit/core";
import * as v from "valibot";
import type { SandboxConfig } from "../runtime/config";
import type { IssuingEventType, Outbox } from "../runtime/outbox";
import { signSync } from "../runtime/sign-sync";
import type { DeliveryKind } from "./delivery";
import type { WebhookPusher } from "./webhook-pusher";

export interface OutboxDeps {
  config: SandboxConfig;
  now: () => number;
  /** A new 64-bit id (the runtime's IdFactory). */
  nextId: () => string;
  pusher: WebhookPusher;
}

// Stands in for `sign` while encoding: the codecs require it, and it is replaced right after.
const SIGN_PLACEHOLDER = "0".repeat(64);

export function createWebhookOutbox(deps: OutboxDeps): Outbox {
  const { config, pusher } = deps;

  const bug = (
    kind: DeliveryKind,
    eventType: string,
    requestId: string,
    issues: v.BaseIssue<unknown>[],
  ) => {
    const problems = toValidationIssues(issues);
    console.error(`[sandbox] ${eventType} push breaks the contract:`, problems);
    const why = problems.map((p) => `${p.path}: ${p.message}`).join("; ");
    pusher.recordFailure(
      { kind, url: undefined, requestId, eventType, body: "" },
      `sandbox bug: the payload breaks the contract: ${why}`,
      deps.now(),
    );
  };

  return {
    issuingEvent(eventType: IssuingEventType, data: Record<string, unknown>) {
      const requestId = deps.nextId();
      const app = {
        request_id: requestId,
        event_type: eventType,
        created_at: new Date(deps.now()).toISOString(),
        version: ISSUING_EVENT_DEFAULT_VERSION,
        data,
      };
      const codec =
        eventType === "issuing.cardOperateEvent" ? cardOperateEvent : cardTransactionEvent;
      const wire = v.safeParse(codec.encode, app);
      if (!wire.success) return bug("issuing", eventType, requestId, wire.issues);
      pusher.push({
        kind: "issuing",
        url: config.webhookUrls.issuing,
        requestId,
        eventType,
        body: stringifyJson(wire.output),
      });
    },

    payoutResult(body: Record<string, unknown>) {
      const requestId = String(body.requestId ?? "");
      const wire = v.safeParse(payoutResultNotification.encode, {
        merchantNo: config.merchantNo,
        ...body,
        sign: SIGN_PLACEHOLDER,
      });
      if (!wire.success) return bug("payout", "payout.result", requestId, wire.issues);
      pusher.push({
        kind: "payout",
        url: config.webhookUrls.payout,
        requestId,
        eventType: "payout.result",
        body: signed(wire.output, config.secretKey, payoutResultNotificationUnsignedFields),
      });
    },

    profitShareResult(body: Record<string, unknown>, url: string | undefined) {
      const requestId = String(body.profitReference ?? "");
      const wire = v.safeParse(profitShareResultNotification.encode, {
        merchantNo: config.merchantNo,
        ...body,
        sign: SIGN_PLACEHOLDER,
      });
      if (!wire.success) return bug("profitShare", "profitShare.result", requestId, wire.issues);
      pusher.push({
        kind: "profitShare",
        url: url ?? config.webhookUrls.profitShare,
        requestId,
        eventType: "profitShare.result",
        body: signed(wire.output, config.secretKey, ["sign"]),
      });
    },
  };
}

/** The wire body with `sign` (last) over every other field. */
function signed(wire: unknown, secretKey: string, unsigned: readonly string[]): string {
  const { sign: _placeholder, ...fields } = wire as Record<string, unknown>;
  return stringifyJson({ ...fields, sign: signSync(fields, secretKey, { unsigned }) });
}
