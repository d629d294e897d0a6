/**
 * Real deliveries from the sandbox (signed, retried and redelivered as the service does) to a
 * handler on a free port: the package's end-to-end proof.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { cardCreateCard, cardholderCreateCardholder } from "@merchantkit/contract";
import { issuingApiKeyAuth, Transport } from "@merchantkit/core";
import { type RunningSandbox, startSandbox } from "@merchantkit/sandbox";
import { afterEach, describe, expect, it } from "vitest";
import type { IssuingWebhookEvent } from "./construct-issuing-event";
import { MemoryDedupeStore } from "./dedupe-store";
import { createWebhookHandler, type WebhookHandlerOptions } from "./webhook-handler";

const SECRET = Buffer.from("merchant-portal-webhook-secret-32").toString("base64");
const API_KEY = "issuing-key-for-webhook-tests";

let sandbox: RunningSandbox | undefined;
let closeReceiver: (() => Promise<void>) | undefined;
afterEach(async () => {
  await sandbox?.close();
  await closeReceiver?.();
  sandbox = undefined;
  closeReceiver = undefined;
});

async function receiver(opts: Omit<WebhookHandlerOptions, "secret">): Promise<string> {
  const handler = createWebhookHandler({ secret: SECRET, ...opts });
  const server = createServer((req, res) => void handler.node(req, res));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  closeReceiver = () => new Promise((r) => server.close(() => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
}

/** Creates a cardholder and a card through the API: the card's CREATE operation is pushed (P, then S). */
async function createCard(s: RunningSandbox): Promise<string> {
  const issuing = new Transport({
    environment: { origin: s.url },
    auth: issuingApiKeyAuth({ apiKey: API_KEY }),
    merchantNo: "M1000001",
  });
  const holder = await issuing.request(cardholderCreateCardholder, {
    firstName: "Ada",
    lastName: "Lovelace",
    email: `ada-${Date.now()}@example.com`,
  });
  const products = (await (await fetch(`${s.url}/__sandbox/issuing/products`)).json()) as
    | { products?: { productId: string; currency: string }[] }
    | { productId: string; currency: string }[];
  const list = Array.isArray(products) ? products : (products.products ?? []);
  const product = list.find((p) => p.currency === "USD") ?? list[0];
  if (!product) throw new Error("the sandbox lists no card products");
  const card = await issuing.request(cardCreateCard, {
    cardholderId: holder.cardholderId,
    productId: String(product.productId),
    amount: "100.10",
  });
  return card.cardId;
}

describe("webhooks from the sandbox", () => {
  it("accepts, types and deduplicates real pushes, including a redelivery", async () => {
    const events: IssuingWebhookEvent[] = [];
    const url = await receiver({
      dedupe: new MemoryDedupeStore(),
      onEvent: (e) => void events.push(e),
    });
    sandbox = await startSandbox({
      issuingApiKey: API_KEY,
      webhookSecret: SECRET,
      webhookUrls: { issuing: url },
      webhookRetryIntervalMs: 20,
      settleDelayMs: 0,
    });
    const cardId = await createCard(sandbox);
    await sandbox.admin.advanceClock(1000);
    const delivered = await sandbox.admin.waitForDeliveries({ timeoutMs: 10_000 });
    expect(delivered.length).toBeGreaterThanOrEqual(2);
    expect(delivered.every((d) => d.state === "delivered")).toBe(true);

    const first = delivered[0];
    if (!first) throw new Error("no delivery");
    await sandbox.admin.redeliver(first.id);
    await sandbox.admin.waitForDeliveries({ timeoutMs: 10_000 });

    // Every delivery reached the handler, but each event ran onEvent once.
    expect(events).toHaveLength(delivered.length);
    expect(new Set(events.map((e) => e.request_id)).size).toBe(events.length);
    const operate = events.filter((e) => e.kind === "cardOperate");
    expect(operate.length).toBeGreaterThanOrEqual(2);
    for (const e of operate) if (e.kind === "cardOperate") expect(e.data.cardId).toBe(cardId);
    expect(operate.map((e) => (e.kind === "cardOperate" ? e.data.status : "")).at(-1)).toBe("S");
  });

  it("gets an event through on the 4th delivery when the handler fails the first 3, exactly once", async () => {
    let calls = 0;
    const processed: string[] = [];
    const url = await receiver({
      dedupe: new MemoryDedupeStore(),
      onEvent: (e) => {
        calls++;
        if (calls <= 3) throw new Error("temporarily down");
        processed.push(e.request_id);
      },
    });
    sandbox = await startSandbox({
      issuingApiKey: API_KEY,
      webhookSecret: SECRET,
      webhookUrls: { issuing: url },
      webhookRetryIntervalMs: 20,
      settleDelayMs: 3_600_000,
    });
    await createCard(sandbox); // one push now (P); S only after an hour of virtual time
    const [delivery] = await sandbox.admin.waitForDeliveries({ timeoutMs: 10_000 });
    expect(delivery?.state).toBe("delivered");
    expect(delivery?.attempts).toHaveLength(4);
    expect(delivery?.attempts.slice(0, 3).every((a) => a.respCode !== "20000")).toBe(true);
    expect(processed).toEqual([delivery?.requestId]);
  });
});
