import { parseJson, stringifyJson, verifySign } from "@merchantkit/core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningSandbox, startSandbox } from "../start-sandbox";
import { adminCall, ok, signedPost } from "../testing/signed-http";

let sandbox: RunningSandbox;
const GATEWAY = "1953712585351499776";

beforeAll(async () => {
  sandbox = await startSandbox({ settleDelayMs: 2_000 });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await sandbox.admin.reset();
  await sandbox.admin.freezeClock(Date.UTC(2026, 5, 22, 10, 0, 0));
  const made = await adminCall(sandbox.url, "POST", "/profitShare/payments", {
    gatewayReference: GATEWAY,
    amount: "100.00",
    currency: "USD",
    profitShare: true,
    profitShareNotifyUrl: "http://127.0.0.1:9/profit",
  });
  expect(made.status).toBe(201);
});

const post = (path: string, fields: Record<string, unknown>) =>
  signedPost(sandbox.url, path, fields);
const receivers = (...items: [string, string][]) =>
  stringifyJson(
    items.map(([account, amount], i) => ({
      profitDetailReference: `d${i}`,
      type: "MERCHANT",
      account,
      amount,
    })),
  );

describe("profit share over HTTP", () => {
  it("share, complete, refused further share, return, over-return, query, notification", async () => {
    const first = await post("/profit/share", {
      profitType: "share",
      currency: "USD",
      profitReference: "ps-1",
      gatewayReference: GATEWAY,
      profitCompleted: false,
      receivers: receivers(["acct-a", "30.00"], ["fail", "10.00"]),
    });
    expect(first.respCode).toBe("20000");
    const data = first.data as Record<string, unknown>;
    expect(data).toMatchObject({ profitType: "share", state: "processing", currency: "USD" });
    // receivers is JSON text on the wire, and the response sign covers exactly what was sent.
    expect(typeof data.receivers).toBe("string");
    expect(await verifySign(data, sandbox.runtime().config.secretKey)).toBe(true);
    const shareRef = data.profitGatewayReference as string;

    await ok(
      post("/profit/share", {
        profitType: "share",
        currency: "USD",
        profitReference: "ps-2",
        gatewayReference: GATEWAY,
        profitCompleted: true,
        receivers: receivers(["acct-b", "20.00"]),
      }),
    );
    const refused = await post("/profit/share", {
      profitType: "share",
      currency: "USD",
      profitReference: "ps-3",
      gatewayReference: GATEWAY,
      profitCompleted: false,
      receivers: receivers(["acct-c", "1.00"]),
    });
    expect(refused.respCode).toBe("42202");

    const back = {
      profitType: "return",
      currency: "USD",
      profitReference: "rt-1",
      profitGatewayReference: shareRef,
      profitParentReference: "ps-1",
      receivers: receivers(["acct-a", "30.00"]),
    };
    const over = await post("/profit/share", {
      ...back,
      profitReference: "rt-0",
      receivers: receivers(["acct-a", "30.01"]),
    });
    expect(over.respCode).toBe("42203");
    const returned = await ok<Record<string, string>>(post("/profit/share", back));
    expect(returned.profitType).toBe("return");
    // An identical repeat is replayed; the same reference with other content is a duplicate.
    expect(
      (await ok<Record<string, string>>(post("/profit/share", back))).profitGatewayReference,
    ).toBe(returned.profitGatewayReference);
    expect(
      (await post("/profit/share", { ...back, receivers: receivers(["acct-a", "1.00"]) })).respCode,
    ).toBe("40900");
    expect(
      (await post("/profit/share", { ...back, profitReference: "x", profitGatewayReference: "1" }))
        .respCode,
    ).toBe("40401");

    await sandbox.admin.advanceClock(2_000);
    const queried = await ok<Record<string, string>>(
      post("/profit/query", { profitReference: "ps-1" }),
    );
    expect(queried.state).toBe("partial");
    expect(await verifySign(queried, sandbox.runtime().config.secretKey)).toBe(true);
    const results = parseJson(queried.receivers as string) as Record<string, unknown>[];
    expect(results.map((r) => [r.result, r.finishedAt])).toEqual([
      ["success", "2026-06-22 10:00:02"],
      ["failed", "2026-06-22 10:00:02"],
    ]);
    const byGateway = await ok<Record<string, string>>(
      post("/profit/query", { profitGatewayReference: shareRef }),
    );
    expect(byGateway).toEqual(queried);

    const deliveries = (await sandbox.admin.deliveries()).filter((d) => d.kind === "profitShare");
    expect(deliveries.map((d) => [d.requestId, d.url])).toEqual([
      ["ps-1", "http://127.0.0.1:9/profit"],
      ["ps-2", "http://127.0.0.1:9/profit"],
      ["rt-1", "http://127.0.0.1:9/profit"],
    ]);
    const pushed = parseJson(deliveries[0]?.body ?? "{}") as Record<string, unknown>;
    expect(pushed).toMatchObject({
      merchantNo: "M1000001",
      profitReference: "ps-1",
      state: "partial",
    });
    expect(await verifySign(pushed, sandbox.runtime().config.secretKey)).toBe(true);

    const dump = (await sandbox.admin.state()).areas.profitShare as {
      payments: unknown[];
      shares: unknown[];
    };
    expect([dump.payments.length, dump.shares.length]).toEqual([1, 3]);
  });
});
