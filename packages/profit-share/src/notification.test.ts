/**
 * Waiting by notification: the sandbox pushes the final result to the payment's notify URL,
 * signed; the merchant's endpoint verifies it with @merchantkit/webhooks and it equals what
 * query answers.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type RunningSandbox, startSandbox } from "@merchantkit/sandbox";
import {
  constructProfitShareResultNotification,
  type ProfitShareResultNotification,
} from "@merchantkit/webhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientFor, payment, receiver, SECRET_KEY } from "./testing/fixtures";

let sandbox: RunningSandbox;
let server: Server;
let notifyUrl: string;
const received: ProfitShareResultNotification[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", async () => {
      received.push(
        await constructProfitShareResultNotification({ rawBody: body, secretKey: SECRET_KEY }),
      );
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"respCode":"20000","respMsg":"success"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  notifyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/profit`;
  sandbox = await startSandbox({ settleDelayMs: 2_000, webhookRetryIntervalMs: 10 });
});
afterAll(async () => {
  await sandbox.close();
  await new Promise((resolve) => server.close(resolve));
});

describe("the result notification", () => {
  it("arrives signed with the final state that query answers", async () => {
    const profit = clientFor(sandbox);
    const gatewayReference = await payment(sandbox);
    const share = await profit.share({
      gatewayReference,
      currency: "USD",
      receivers: [receiver()],
      profitCompleted: true,
      urlCallback: notifyUrl,
    });
    await sandbox.admin.advanceClock(2_000);
    await sandbox.admin.waitForDeliveries();
    const pushed = received.find((n) => n.profitReference === share.profitReference);
    expect(pushed).toMatchObject({
      state: "success",
      profitGatewayReference: share.profitGatewayReference,
    });
    const queried = await profit.query({ profitReference: share.profitReference });
    expect(pushed?.receivers).toEqual(queried.receivers);
  });
});
