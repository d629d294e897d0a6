// Webhook pushes over real HTTP to a local receiver: signatures checked with an independent
// HMAC, the retry rule on scaled timers, redelivery, duplicate and out-of-order faults, and
// the signed payout / profit-share result notifications.
import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { parseJson, verifySign } from "@merchantkit/core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { defaultConfig } from "../runtime/config";
import { type RunningSandbox, startSandbox } from "../start-sandbox";
import { BIG_ID, fakeAreas } from "../testing/fake-areas";
import { issuingHeaders, PATHS, post } from "../testing/wire-client";

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  at: number;
}

/** A merchant endpoint: records every push and answers from a script (default: 20000). */
class Receiver {
  received: Received[] = [];
  answers: { status: number; body: string; delayMs?: number }[] = [];
  server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      this.received.push({ path: req.url ?? "", headers: req.headers, raw, at: Date.now() });
      const answer = this.answers.shift() ?? {
        status: 200,
        body: '{"respCode":"20000","respMsg":"ok"}',
      };
      setTimeout(() => {
        res.writeHead(answer.status, { "Content-Type": "application/json" });
        res.end(answer.body);
      }, answer.delayMs ?? 0);
    });
  });
  url = "";

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
}

const config = defaultConfig();
const receiver = new Receiver();
let sandbox: RunningSandbox;

function hmac(timestamp: string, raw: string): string {
  return createHmac("sha256", Buffer.from(config.webhookSecret, "base64"))
    .update(`${timestamp}.${raw}`)
    .digest("hex");
}

const adminPost = (path: string) => fetch(`${sandbox.url}/__sandbox${path}`, { method: "POST" });

beforeAll(async () => {
  await receiver.start();
  sandbox = await startSandbox({
    areas: fakeAreas(),
    webhookRetryIntervalMs: 40,
    webhookUrls: {
      issuing: `${receiver.url}/issuing`,
      payout: `${receiver.url}/payout`,
      profitShare: `${receiver.url}/profit`,
    },
  });
});
afterAll(async () => {
  await sandbox.close();
  receiver.server.closeAllConnections();
  await new Promise((resolve) => receiver.server.close(resolve));
});
beforeEach(async () => {
  await sandbox.admin.reset();
  await sandbox.admin.configure({ webhookMaxRetries: 10, webhookRetryIntervalMs: 40 });
  receiver.received = [];
  receiver.answers = [];
});

describe("issuing events", () => {
  it("pushes a signed cardOperateEvent when an operation settles", async () => {
    await sandbox.admin.freezeClock(Date.parse("2026-05-01T12:00:00.000Z"));
    const res = await post(
      sandbox.url + PATHS.operate,
      { clientRequestId: "wh-1", cardId: BIG_ID, type: "FREEZE" },
      issuingHeaders(),
    );
    expect(res.body.respCode).toBe("20000");
    await sandbox.admin.advanceClock(config.settleDelayMs);
    const [delivery] = await sandbox.admin.waitForDeliveries();
    expect(delivery).toMatchObject({
      kind: "issuing",
      state: "delivered",
      eventType: "issuing.cardOperateEvent",
    });
    expect(receiver.received).toHaveLength(1);
    const push = receiver.received[0] as Received;
    expect(push.path).toBe("/issuing");
    expect(push.headers["content-type"]).toBe("application/json;charset=UTF-8");
    const timestamp = push.headers["x-timestamp"] as string;
    expect(timestamp).toBe(String(Date.parse("2026-05-01T12:00:02.000Z") / 1000));
    expect(push.headers["x-signature"]).toBe(hmac(timestamp, push.raw));
    const event = parseJson(push.raw) as Record<string, unknown>;
    expect(event).toMatchObject({
      event_type: "issuing.cardOperateEvent",
      created_at: "2026-05-01T12:00:02.000Z",
      version: "1.0",
      data: { clientRequestId: "wh-1", type: "FREEZE", status: "S" },
    });
    expect(event.request_id).toMatch(/^\d{19}$/);
    expect(delivery?.requestId).toBe(event.request_id);
    // 64-bit ids go out as bare JSON numbers, digit for digit.
    expect(push.raw).toContain(`"cardId":${BIG_ID}`);
  });

  it("never holds up the request that caused the push", async () => {
    receiver.answers.push({ status: 200, body: '{"respCode":"20000"}', delayMs: 400 });
    const res = await adminPost("/issuing/push");
    expect(res.status).toBe(200);
    // The receiver takes 400 ms to answer: had the request waited for the push, the delivery
    // would already be delivered when the answer arrives.
    const during = await sandbox.admin.deliveries();
    expect(during.at(-1)?.state).toBe("pending");
    const after = await sandbox.admin.waitForDeliveries();
    expect(after.at(-1)?.state).toBe("delivered");
  });

  it("retries a push not acknowledged with 20000, re-stamped and re-signed, same body", async () => {
    receiver.answers.push(
      { status: 200, body: '{"respCode":"50000","respMsg":"busy"}' },
      { status: 500, body: "oops" },
    );
    await adminPost("/issuing/push");
    const [delivery] = await sandbox.admin.waitForDeliveries();
    expect(delivery?.state).toBe("delivered");
    expect(delivery?.attempts.map((a) => a.respCode ?? a.httpStatus)).toEqual([
      "50000",
      500,
      "20000",
    ]);
    expect(receiver.received).toHaveLength(3);
    const [a, b, c] = receiver.received as [Received, Received, Received];
    expect(b.at - a.at).toBeGreaterThanOrEqual(30);
    expect(c.at - b.at).toBeGreaterThanOrEqual(30);
    expect(new Set(receiver.received.map((r) => r.raw)).size).toBe(1);
    for (const r of receiver.received) {
      expect(r.headers["x-signature"]).toBe(hmac(r.headers["x-timestamp"] as string, r.raw));
    }
  });

  it("gives up after webhookMaxRetries retries", async () => {
    await sandbox.admin.configure({ webhookMaxRetries: 2, webhookRetryIntervalMs: 20 });
    for (let i = 0; i < 5; i++) receiver.answers.push({ status: 503, body: "{}" });
    await adminPost("/issuing/push");
    const [delivery] = await sandbox.admin.waitForDeliveries();
    expect(delivery?.state).toBe("failed");
    expect(delivery?.attempts).toHaveLength(3);
    expect(receiver.received).toHaveLength(3);
  });

  it("records network errors and an unconfigured URL", async () => {
    await sandbox.admin.configure({
      webhookMaxRetries: 1,
      webhookRetryIntervalMs: 10,
      webhookUrls: { issuing: "http://127.0.0.1:9/nothing" },
    });
    try {
      await adminPost("/issuing/push");
      const [delivery] = await sandbox.admin.waitForDeliveries();
      expect(delivery?.state).toBe("failed");
      expect(delivery?.attempts).toHaveLength(2);
      expect(delivery?.attempts[0]?.error).toMatch(/fetch failed|ECONNREFUSED/);
      await sandbox.admin.configure({ webhookUrls: { issuing: null } });
      await adminPost("/issuing/push");
      const log = await sandbox.admin.waitForDeliveries();
      expect(log.at(-1)).toMatchObject({ state: "undeliverable", attempts: [] });
    } finally {
      await sandbox.admin.configure({ webhookUrls: { issuing: `${receiver.url}/issuing` } });
    }
  });
});

describe("redelivery and webhook faults", () => {
  it("redelivers a logged push as a duplicate with the same body", async () => {
    await adminPost("/issuing/push");
    const [first] = await sandbox.admin.waitForDeliveries();
    const copy = await sandbox.admin.redeliver(first?.id as string);
    expect(copy.duplicateOf).toBe(first?.id);
    await sandbox.admin.waitForDeliveries();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]?.raw).toBe(receiver.received[0]?.raw);
    const missing = await adminPost("/deliveries/d999/redeliver");
    expect(missing.status).toBe(404);
  });

  it("duplicateNext delivers the next pushes twice", async () => {
    await sandbox.admin.webhookFaults({ duplicateNext: 1 });
    await adminPost("/issuing/push?n=2");
    const log = await sandbox.admin.waitForDeliveries();
    expect(log).toHaveLength(3);
    expect(receiver.received).toHaveLength(3);
    const ids = receiver.received.map(
      (r) => (parseJson(r.raw) as { request_id: string }).request_id,
    );
    expect(new Set(ids).size).toBe(2);
  });

  it("reorderNext holds the next pushes and delivers them in reverse order", async () => {
    const faults = await sandbox.admin.webhookFaults({ reorderNext: 3 });
    expect(faults).toMatchObject({ reorderNext: 3, held: 0 });
    await adminPost("/issuing/push?n=3");
    const log = await sandbox.admin.waitForDeliveries();
    const sent = log.map((d) => d.requestId);
    const arrived = receiver.received.map(
      (r) => (parseJson(r.raw) as { request_id: string }).request_id,
    );
    expect(arrived).toEqual([...sent].reverse());
  });

  it("validates the webhook fault body", async () => {
    const res = await fetch(`${sandbox.url}/__sandbox/webhooks/faults`, {
      method: "POST",
      body: JSON.stringify({ duplicateNext: -1 }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { issues: { field: string }[] }).issues[0]?.field).toBe(
      "duplicateNext",
    );
  });
});

describe("payout and profit-share notifications", () => {
  it("signs the payout result with the SHA-256 rule over every other field", async () => {
    await adminPost("/payout/push-result");
    const [delivery] = await sandbox.admin.waitForDeliveries();
    expect(delivery).toMatchObject({ kind: "payout", state: "delivered", requestId: "R-1" });
    const push = receiver.received[0] as Received;
    expect(push.path).toBe("/payout");
    expect(push.headers["x-signature"]).toBeUndefined();
    const body = parseJson(push.raw) as Record<string, unknown>;
    expect(body).toMatchObject({
      merchantNo: config.merchantNo,
      payoutStatus: "S",
      status: "success",
    });
    expect(push.raw).toContain(`"payoutId":"${BIG_ID}"`);
    expect(push.raw).toContain('"sourceAmount":"100.10"');
    expect(await verifySign(body, config.secretKey)).toBe(true);
    expect(await verifySign({ ...body, payoutStatus: "F" }, config.secretKey)).toBe(false);
  });

  it("sends the profit-share result to urlCallback, signed", async () => {
    const callback = `${receiver.url}/callback`;
    await adminPost(`/profitShare/push-result?url=${encodeURIComponent(callback)}`);
    const [delivery] = await sandbox.admin.waitForDeliveries();
    expect(delivery).toMatchObject({ kind: "profitShare", url: callback, state: "delivered" });
    const body = parseJson(receiver.received[0]?.raw as string) as Record<string, unknown>;
    expect(body).toMatchObject({ profitReference: "P-1", state: "success", receivers: "[]" });
    expect(await verifySign(body, config.secretKey)).toBe(true);
  });
});
