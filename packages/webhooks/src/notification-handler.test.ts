import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createNotificationHandler } from "./notification-handler";
import {
  constructPayoutResultNotification,
  type PayoutResultNotification,
  signNotification,
} from "./notifications";
import { WebhookBodyTooLargeError } from "./refused-answer";

const KEY = "merchant-secret";
const fields = { merchantNo: "M1", payoutId: "1953712585351499776", requestId: "r1" };

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** A payout notification handler, what it was given and the errors it reported. */
function payoutHandler(opts: { maxBodyBytes?: number; fail?: boolean } = {}) {
  const received: PayoutResultNotification[] = [];
  const errors: unknown[] = [];
  const handler = createNotificationHandler({
    construct: constructPayoutResultNotification,
    secretKey: KEY,
    maxBodyBytes: opts.maxBodyBytes,
    onNotification(notification) {
      if (opts.fail) throw new Error("database away");
      received.push(notification);
    },
    onError: (e) => void errors.push(e),
  });
  return { handler, received, errors };
}

const signed = () => signNotification({ body: { ...fields, payoutStatus: "S" }, secretKey: KEY });

describe("createNotificationHandler", () => {
  it("acknowledges a verified notification after onNotification, every time it is delivered", async () => {
    const { handler, received, errors } = payoutHandler();
    const rawBody = await signed();
    const ok = { status: 200, body: { respCode: "20000", respMsg: "success" } };
    expect(await handler.handle({ rawBody })).toEqual(ok);
    expect(await handler.handle({ rawBody })).toEqual(ok);
    expect(received.map((n) => [n.payoutId, n.payoutStatus])).toEqual([
      ["1953712585351499776", "S"],
      ["1953712585351499776", "S"],
    ]);
    expect(errors).toEqual([]);
  });

  it("answers a refused notification as answerRefusedNotification does, telling onError", async () => {
    const { handler, received, errors } = payoutHandler();
    const res = await handler.handle({ rawBody: JSON.stringify({ ...fields, sign: "0" }) });
    expect(res).toEqual({
      status: 401,
      body: { respCode: "40100", respMsg: "signature verification failed" },
    });
    expect(received).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ name: "SignatureError", reason: "no_match" });
  });

  it("answers 500 with a retry body when onNotification throws, telling onError", async () => {
    const { handler, errors } = payoutHandler({ fail: true });
    expect(await handler.handle({ rawBody: await signed() })).toEqual({
      status: 500,
      body: { respCode: "50000", respMsg: "not processed, retry" },
    });
    expect(errors).toMatchObject([{ message: "database away" }]);
  });

  it("fetch and node:http: take a notification, and answer one over the limit 413", async () => {
    const { handler, received, errors } = payoutHandler({ maxBodyBytes: 1024 });
    const body = await signed();
    const viaFetch = await handler.fetch(new Request("http://x/", { method: "POST", body }));
    expect(viaFetch.status).toBe(200);
    const big = "x".repeat(4096);
    const tooBig = await handler.fetch(new Request("http://x/", { method: "POST", body: big }));
    expect(tooBig.status).toBe(413);
    expect(tooBig.headers.get("connection")).toBe("close");

    const server = createServer((req, res) => void handler.node(req, res));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    close = () => new Promise((r) => server.close(() => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const viaNode = await fetch(url, { method: "POST", body });
    expect(viaNode.status).toBe(200);
    expect(await viaNode.json()).toEqual({ respCode: "20000", respMsg: "success" });
    const over = await fetch(url, { method: "POST", body: big });
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({
      respCode: "50000",
      respMsg: "body is over the 1024-byte limit",
    });
    expect(received).toHaveLength(2);
    expect(errors).toHaveLength(2);
    expect(errors.every((e) => e instanceof WebhookBodyTooLargeError)).toBe(true);
  });
});
