// While the clock runs, due transitions happen by themselves: a card operation settles and its
// webhook goes out at its time, with no other request to the sandbox (a developer's local
// receiver sees events as the real service would send them). A frozen clock stays still.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { cardCreateCard, cardholderCreateCardholder } from "@merchantkit/contract";
import { afterAll, describe, expect, it } from "vitest";
import { defaultProducts } from "../issuing/products";
import { type RunningSandbox, startSandbox } from "../start-sandbox";
import { clientFor } from "../testing/sandbox-client";

const USD = defaultProducts[0]?.productId as string;

async function receiver(): Promise<{ url: string; bodies: string[]; server: Server }> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      bodies.push(body);
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"respCode":"20000","respMsg":"success"}');
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    bodies,
    server,
  };
}

describe("the sandbox's own clock", () => {
  const open: { close(): unknown }[] = [];
  afterAll(async () => {
    for (const o of open) await o.close();
  });

  async function createCard(sandbox: RunningSandbox, id: string) {
    const api = clientFor(sandbox);
    const holder = await api.ok(cardholderCreateCardholder, {
      merchantNo: "M1000001",
      clientRequestId: `${id}-holder`,
      firstName: "Ada",
      lastName: "Lovelace",
      email: "ada@example.com",
    });
    await api.ok(cardCreateCard, {
      clientRequestId: `${id}-card`,
      cardholderId: holder.cardholderId,
      productId: USD,
      amount: "100.00",
    });
  }

  const settled = (bodies: string[]) =>
    bodies.filter((b) => b.includes("cardOperateEvent") && b.includes('"status":"S"'));

  it("settles an operation and pushes its webhook with no further request", async () => {
    const hooks = await receiver();
    open.push({ close: () => new Promise((r) => hooks.server.close(r)) });
    const sandbox = await startSandbox({ settleDelayMs: 300, webhookUrls: { issuing: hooks.url } });
    open.push(sandbox);
    await createCard(sandbox, "tick");
    // No request from here on: only the sandbox's own ticking can settle and push.
    for (let i = 0; i < 50 && settled(hooks.bodies).length === 0; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(settled(hooks.bodies)).toHaveLength(1);
  });

  it("leaves a frozen clock still", async () => {
    const hooks = await receiver();
    open.push({ close: () => new Promise((r) => hooks.server.close(r)) });
    const sandbox = await startSandbox({ settleDelayMs: 300, webhookUrls: { issuing: hooks.url } });
    open.push(sandbox);
    await sandbox.admin.freezeClock(Date.now());
    await createCard(sandbox, "frozen");
    await new Promise((r) => setTimeout(r, 800));
    expect(settled(hooks.bodies)).toEqual([]);
  });
});
