/**
 * signIssuingWebhook writes an event the way the service pushes it: the same bytes as the
 * sandbox's real pushes (its outbox encodes with the same contract codecs), ids and amounts as
 * bare JSON numbers, so a merchant's endpoint test sees the production body.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { isJsonNumber, isRequestValidationError, parseJson } from "@merchantkit/core";
import { type RunningSandbox, startSandbox } from "@merchantkit/sandbox";
import { afterEach, describe, expect, it } from "vitest";
import { constructIssuingEvent, type IssuingWebhookEvent } from "./construct-issuing-event";
import { signIssuingWebhook } from "./sign-issuing-webhook";
import { createWebhookHandler } from "./webhook-handler";

const SECRET = Buffer.from("merchant-portal-webhook-secret-32").toString("base64");

let sandbox: RunningSandbox | undefined;
let closeReceiver: (() => Promise<void>) | undefined;
afterEach(async () => {
  await sandbox?.close();
  await closeReceiver?.();
  sandbox = undefined;
  closeReceiver = undefined;
});

async function receiver(): Promise<string> {
  const handler = createWebhookHandler({ secret: SECRET, onEvent: () => {} });
  const server = createServer((req, res) => void handler.node(req, res));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  closeReceiver = () => new Promise((r) => server.close(() => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
}

async function admin(s: RunningSandbox, path: string, body: unknown) {
  const res = await fetch(`${s.url}/__sandbox/issuing${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** An event as the merchant's code has it: verified and decoded from a signed body. */
async function decoded(body: string): Promise<IssuingWebhookEvent> {
  const signed = await signIssuingWebhook({ body, secret: SECRET });
  return constructIssuingEvent({ rawBody: signed.body, headers: signed.headers, secret: SECRET });
}

describe("signIssuingWebhook", () => {
  it("writes an event byte for byte as the sandbox pushes it, and the result verifies", async () => {
    sandbox = await startSandbox({
      webhookSecret: SECRET,
      webhookUrls: { issuing: await receiver() },
      webhookRetryIntervalMs: 20,
      settleDelayMs: 0,
    });
    const { card } = (await admin(sandbox, "/cards", { balance: "500.00" })) as {
      card: { cardId: string };
    };
    const auth = (await admin(sandbox, "/transactions", {
      cardId: card.cardId,
      amount: "12.30",
    })) as { transaction: { txnOrderNo: string } };
    await admin(sandbox, `/transactions/${auth.transaction.txnOrderNo}/clear`, {});
    await sandbox.admin.advanceClock(1_000);
    const pushes = await sandbox.admin.waitForDeliveries({ timeoutMs: 10_000 });
    const kinds = new Set(pushes.map((p) => p.eventType));
    expect([...kinds].sort()).toEqual(["issuing.cardOperateEvent", "issuing.cardTransactionEvent"]);
    expect(pushes.length).toBeGreaterThanOrEqual(3);

    for (const push of pushes) {
      // What the merchant's endpoint got from the sandbox, verified and decoded...
      const event = await decoded(push.body);
      // ...signed again by the helper: the same text.
      const signed = await signIssuingWebhook({ body: event, secret: SECRET });
      expect(signed.body).toBe(push.body);
      const again = await constructIssuingEvent({
        rawBody: signed.body,
        headers: signed.headers,
        secret: SECRET,
      });
      expect(again).toEqual(event);
    }
    const txn = pushes.find((p) => p.eventType === "issuing.cardTransactionEvent");
    const data = (parseJson(txn?.body ?? "{}") as { data: Record<string, unknown> }).data;
    expect(isJsonNumber(data.cardId)).toBe(true);
  });

  it("writes ids and amounts as JSON numbers, never the SDK's strings, and no kind", async () => {
    const wire =
      '{"request_id":"1953712585351499777","event_type":"issuing.cardTransactionEvent","created_at":"2026-06-01T00:00:00Z","data":{"txnType":"CLEARING","txnStatus":"S","txnOrderNo":"T1","cardId":1953712585351499778,"transactionTime":1780000000000,"cardAmount":12.30}}';
    const event = await decoded(wire);
    const { body } = await signIssuingWebhook({ body: event, secret: SECRET });
    // The service's default subscription version is written, as the sandbox writes it.
    expect(body).toBe(wire.replace('"data":', '"version":"1.0","data":'));
    expect(body).toContain('"cardId":1953712585351499778,');
    expect(body).toContain('"cardAmount":12.30}');
    const naive = JSON.parse(body) as { kind?: unknown; data: Record<string, unknown> };
    expect(typeof naive.data.cardId).toBe("number");
    expect(naive.data.cardAmount).toBe(12.3);
    expect(naive.kind).toBeUndefined();
  });

  it("takes an event built by hand (no kind, no version) and one of an unknown type", async () => {
    const { body } = await signIssuingWebhook({
      body: {
        request_id: "1953712585351499776",
        event_type: "issuing.cardOperateEvent",
        created_at: "2027-01-15T08:00:00Z",
        data: {
          operateRecordId: "1953712585351499777",
          cardId: "1953712585351499778",
          clientRequestId: "r-1",
          type: "DEPOSIT",
          status: "S",
          amount: "100.10",
          currency: "USD",
        },
      },
      secret: SECRET,
    });
    expect(body).toBe(
      '{"request_id":"1953712585351499776","event_type":"issuing.cardOperateEvent","created_at":"2027-01-15T08:00:00Z","version":"1.0","data":{"operateRecordId":1953712585351499777,"cardId":1953712585351499778,"clientRequestId":"r-1","type":"DEPOSIT","status":"S","amount":100.10,"currency":"USD"}}',
    );

    const unknownWire =
      '{"request_id":"9","event_type":"issuing.cardLimitEvent","created_at":"2027-01-15T08:00:00Z","version":"2.0","data":{"cardId":1953712585351499778,"limit":{"daily":500.00}}}';
    const unknown = await decoded(unknownWire);
    expect(unknown.kind).toBe("unknown");
    expect((await signIssuingWebhook({ body: unknown, secret: SECRET })).body).toBe(unknownWire);
  });

  it("signs a string as it is, and refuses an event the contract does not describe", async () => {
    const text = '{"request_id":"1","event_type":"x","data":{"cardId":"1"}}';
    expect((await signIssuingWebhook({ body: text, secret: SECRET })).body).toBe(text);

    const wrong = signIssuingWebhook({
      body: {
        request_id: "1",
        event_type: "issuing.cardOperateEvent",
        created_at: "2027-01-15T08:00:00Z",
        // An amount as a JS number (the wire form, after JSON.parse): 100.1 or 100.10? Refused.
        data: {
          operateRecordId: "1",
          cardId: "2",
          clientRequestId: "r",
          type: "DEPOSIT",
          status: "S",
          amount: 100.1,
        },
      } as never,
      secret: SECRET,
    });
    await expect(wrong).rejects.toSatisfy(isRequestValidationError);
    await expect(wrong).rejects.toThrow(/data\.amount: .*pass its text as a string/);
  });
});
