/**
 * ProfitShareClient against the sandbox over HTTP: share twice (profitCompleted false, then
 * true), a further share refused, a reversal, duplicate profitReference, retries with one key,
 * rules refused before sending, and query agreeing with the sandbox's own state.
 */
import {
  isConfigurationError,
  isConnectionError,
  isDuplicateError,
  isInsufficientBalanceError,
  isInvalidRequestError,
  isNotFoundError,
  isRequestValidationError,
  isWaitTimeoutError,
  type RequestValidationError,
} from "@merchantkit/core";
import { type RunningSandbox, startSandbox } from "@merchantkit/sandbox";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ProfitShareClient } from "./profit-share-client";
import {
  bodyOf,
  clientFor,
  MERCHANT_NO,
  payment,
  receiver,
  SECRET_KEY,
  shareTruth,
} from "./testing/fixtures";
import type { ProfitShareResult, ReverseParams, ShareParams } from "./types";

let sandbox: RunningSandbox;
let profit: ProfitShareClient;

beforeAll(async () => {
  sandbox = await startSandbox({ settleDelayMs: 2_000 });
  profit = clientFor(sandbox);
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await sandbox.admin.clearFaults();
  await sandbox.admin.clearRequests();
});

/** The result as the sandbox holds it, in the SDK's shape, for comparison with query. */
async function truthOf(result: ProfitShareResult) {
  const truth = await shareTruth(sandbox, result.profitReference);
  return {
    profitType: truth?.profitType,
    profitReference: truth?.profitReference,
    profitGatewayReference: truth?.profitGatewayReference,
    state: truth?.state,
    currency: truth?.currency,
    receivers: truth?.receivers.map(({ account: _a, description: _d, ...r }) => ({
      failReason: null,
      finishedAt: null,
      ...r,
    })),
  };
}

describe("ProfitShareClient", () => {
  it("refuses a missing secret key or a bad environment at construction", () => {
    for (const attempt of [
      () => new ProfitShareClient({ environment: "sandbox", secretKey: "" }),
      () => new ProfitShareClient({ environment: { payout: "https://p.test" }, secretKey: "k" }),
      () => new ProfitShareClient({ environment: "sandbox", secretKey: "  " }),
      () => new ProfitShareClient({ environment: "sandbox", secretKey: "k", merchantNo: "" }),
    ]) {
      let thrown: unknown;
      try {
        attempt();
      } catch (error) {
        thrown = error;
      }
      expect(isConfigurationError(thrown)).toBe(true);
    }
  });

  it("needs merchantNo from the client or the call: issuing's ConfigurationError, nothing sent", async () => {
    const anonymous = clientFor(sandbox, { merchantNo: undefined });
    const before = (await sandbox.admin.requests()).length;
    for (const call of [
      () => anonymous.query({ profitReference: "p-none" }),
      () =>
        anonymous.share({
          gatewayReference: "1",
          currency: "USD",
          receivers: [receiver()],
          profitCompleted: false,
        }),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect(isConfigurationError(error)).toBe(true);
      expect((error as Error).message).toBe(
        "merchantNo is required for profit-share calls: pass it to new ProfitShareClient({ merchantNo }) or in the params",
      );
    }
    expect((await sandbox.admin.requests()).length).toBe(before);
    // Given in the params, the call goes out (and finds nothing under that reference).
    const unknown = await anonymous
      .query({ profitReference: "p-none", merchantNo: MERCHANT_NO })
      .catch((e: unknown) => e);
    expect(isConfigurationError(unknown)).toBe(false);
  });

  it("shares with profitCompleted false, then true, then refuses a further share", async () => {
    const gatewayReference = await payment(sandbox);
    const first = await profit.share({
      gatewayReference,
      currency: "USD",
      receivers: [
        receiver(),
        receiver({ profitDetailReference: "d2", amount: "0.01", description: "fee" }),
      ],
      profitCompleted: false,
    });
    // 20000 means accepted: the receivers are still pending.
    expect(first).toMatchObject({ profitType: "share", state: "processing", currency: "USD" });
    expect(first.receivers.map((r) => [r.profitDetailReference, r.amount, r.result])).toEqual([
      ["d1", "10.10", "pending"],
      ["d2", "0.01", "pending"],
    ]);
    expect(first.profitReference).toMatch(/^[0-9a-f-]{36}$/);

    // receivers went out as JSON text and profitType was set by the client.
    const [sent] = await sandbox.admin.requests({ path: "/profit/share" });
    expect(bodyOf(sent).profitType).toBe("share");
    expect(typeof bodyOf(sent).receivers).toBe("string");
    expect(JSON.parse(bodyOf(sent).receivers as string)[0]).toEqual(receiver());

    const last = await profit.share({
      gatewayReference,
      currency: "USD",
      receivers: [receiver({ profitDetailReference: "d3", amount: "20.00" })],
      profitCompleted: true,
    });
    expect(last.state).toBe("processing");

    const refused = await profit
      .share({
        gatewayReference,
        currency: "USD",
        receivers: [receiver({ profitDetailReference: "d4", amount: "1.00" })],
        profitCompleted: false,
      })
      .catch((e: unknown) => e);
    expect(isInvalidRequestError(refused)).toBe(true);
    expect(refused).toMatchObject({ respCode: "42202" });

    // query answers what the sandbox holds, before and after settlement.
    expect(await profit.query({ profitReference: first.profitReference })).toMatchObject(
      await truthOf(first),
    );
    await sandbox.admin.advanceClock(2_000);
    const settled = await profit.query({ profitGatewayReference: first.profitGatewayReference });
    expect(settled.state).toBe("success");
    expect(settled.receivers.every((r) => r.result === "success" && r.finishedAt !== null)).toBe(
      true,
    );
    expect(settled).toMatchObject(await truthOf(first));
    expect((await shareTruth(sandbox, last.profitReference))?.profitCompleted).toBe(true);
  });

  it("reverses a share and waits for the reversal's final state", async () => {
    const gatewayReference = await payment(sandbox);
    const share = await profit.share({
      gatewayReference,
      currency: "USD",
      receivers: [receiver({ amount: "30.00" })],
      profitCompleted: true,
    });
    await sandbox.admin.advanceClock(2_000);

    const reversal = await profit.reverse({
      currency: "USD",
      profitGatewayReference: share.profitGatewayReference,
      profitParentReference: share.profitReference,
      receivers: [receiver({ profitDetailReference: "r1", amount: "12.50" })],
    });
    expect(reversal).toMatchObject({ profitType: "return", state: "processing" });
    const sent = (await sandbox.admin.requests({ path: "/profit/share" })).at(-1);
    expect(bodyOf(sent).profitType).toBe("return");
    expect(bodyOf(sent).gatewayReference).toBeUndefined();

    const waiting = profit.waitForResult(
      { profitReference: reversal.profitReference },
      { intervalMs: 5, timeoutMs: 10_000 },
    );
    await sandbox.admin.advanceClock(2_000);
    const done = await waiting;
    expect(done.state).toBe("success");
    expect(done.receivers[0]).toMatchObject({ amount: "12.50", result: "success" });
    expect(done).toMatchObject(await truthOf(reversal));

    // More than the share gave that account cannot be returned.
    const tooMuch = await profit
      .reverse({
        currency: "USD",
        profitGatewayReference: share.profitGatewayReference,
        profitParentReference: share.profitReference,
        receivers: [receiver({ profitDetailReference: "r2", amount: "20.00" })],
      })
      .catch((e: unknown) => e);
    expect(isInsufficientBalanceError(tooMuch)).toBe(true);
    const unknownParent = await profit
      .reverse({
        currency: "USD",
        profitGatewayReference: share.profitGatewayReference,
        profitParentReference: "not-the-share",
        receivers: [receiver()],
      })
      .catch((e: unknown) => e);
    expect(isNotFoundError(unknownParent)).toBe(true);
  });

  it("ends a wait with a WaitTimeoutError while the share is still processing", async () => {
    const gatewayReference = await payment(sandbox);
    const share = await profit.share({
      gatewayReference,
      currency: "USD",
      receivers: [receiver()],
      profitCompleted: false,
    });
    const error = await profit
      // Long enough for the first read to answer on a loaded machine (30 ms was not: the
      // message then said "unread"); the share stays processing, so the wait still times out.
      .waitForResult(
        { profitReference: share.profitReference },
        { intervalMs: 50, timeoutMs: 1_500 },
      )
      .catch((e: unknown) => e);
    expect(isWaitTimeoutError(error)).toBe(true);
    expect(isConnectionError(error)).toBe(false);
    expect((error as Error).message).toContain("still processing");
  });

  it("settles a receiver with account fail as failed, the share as partial", async () => {
    const gatewayReference = await payment(sandbox);
    const share = await profit.share({
      gatewayReference,
      currency: "USD",
      receivers: [receiver(), receiver({ profitDetailReference: "d2", account: "fail" })],
      profitCompleted: false,
    });
    await sandbox.admin.advanceClock(2_000);
    const done = await profit.waitForResult(
      { profitReference: share.profitReference },
      { intervalMs: 5 },
    );
    expect(done.state).toBe("partial");
    expect(done.receivers[1]).toMatchObject({ result: "failed" });
    expect(done.receivers[1]?.failReason).toEqual(expect.any(String));
  });

  it("refuses a reused profitReference with other params, replays an identical repeat", async () => {
    const gatewayReference = await payment(sandbox);
    const params: ShareParams = {
      profitReference: `dup-${Date.now()}`,
      gatewayReference,
      currency: "USD",
      receivers: [receiver()],
      profitCompleted: false,
    };
    const first = await profit.share(params);
    const again = await profit.share(params);
    expect(again).toEqual(first);
    const other = await profit
      .share({ ...params, receivers: [receiver({ amount: "5.00" })] })
      .catch((e: unknown) => e);
    expect(isDuplicateError(other)).toBe(true);
    expect(other).toMatchObject({ respCode: "40900", idempotencyKey: params.profitReference });
    // A reversal may not take a share's reference either.
    const reused = await profit
      .reverse({
        profitReference: params.profitReference,
        currency: "USD",
        profitGatewayReference: first.profitGatewayReference,
        profitParentReference: first.profitReference,
        receivers: [receiver({ amount: "1.00" })],
      })
      .catch((e: unknown) => e);
    expect(isDuplicateError(reused)).toBe(true);
  });

  it("retries a share on 503 with the same profitReference: one share", async () => {
    const gatewayReference = await payment(sandbox);
    await sandbox.admin.injectFault({
      path: "/profit/share",
      kind: "http_status",
      status: 503,
      count: 2,
      after: true,
    });
    const { data, response } = await profit
      .share({ gatewayReference, currency: "USD", receivers: [receiver()], profitCompleted: false })
      .withResponse();
    expect(response.attempts).toBe(3);
    const attempts = await sandbox.admin.requests({ path: "/profit/share" });
    expect(attempts.map((a) => bodyOf(a).profitReference)).toEqual([
      data.profitReference,
      data.profitReference,
      data.profitReference,
    ]);
    const state = await sandbox.admin.state();
    const shares = (
      state.areas.profitShare as unknown as { shares: { gatewayReference?: string }[] }
    ).shares;
    expect(shares.filter((s) => s.gatewayReference === gatewayReference)).toHaveLength(1);
  });

  it("refuses broken requests before sending", async () => {
    const gatewayReference = await payment(sandbox);
    const share: ShareParams = {
      gatewayReference,
      currency: "USD",
      receivers: [receiver()],
      profitCompleted: false,
    };
    const reversal: ReverseParams = {
      currency: "USD",
      profitGatewayReference: "1953712585351499777",
      profitParentReference: "p-1",
      receivers: [receiver()],
    };
    const cases: [() => PromiseLike<unknown>, string][] = [
      [() => profit.share({ ...share, gatewayReference: undefined } as never), "gatewayReference"],
      [() => profit.share({ ...share, profitCompleted: undefined } as never), "profitCompleted"],
      [() => profit.reverse({ ...reversal, profitCompleted: false } as never), "profitCompleted"],
      [() => profit.reverse({ ...reversal, gatewayReference } as never), "gatewayReference"],
      [
        () => profit.reverse({ ...reversal, profitParentReference: undefined } as never),
        "profitParentReference",
      ],
      [() => profit.share({ ...share, receivers: [] }), "receivers"],
      [() => profit.share({ ...share, receivers: [receiver({ amount: "0.001" })] }), "receivers"],
      [() => profit.share({ ...share, currency: "usd" }), "currency"],
      [() => profit.share({ ...share, profitReference: "p".repeat(65) }), "profitReference"],
      [() => profit.share({ ...share, urlCallback: "merchant.example.com" }), "urlCallback"],
      [() => profit.query({}), "profitReference"],
    ];
    for (const [call, field] of cases) {
      const error = await Promise.resolve(call()).catch((e: unknown) => e);
      expect(isRequestValidationError(error), field).toBe(true);
      expect(
        (error as RequestValidationError).issues.map((i) => i.path).join(" "),
        field,
      ).toContain(field);
    }
    expect(await sandbox.admin.requests()).toEqual([]);
  });

  it("signs requests with the secret key", async () => {
    const wrong = clientFor(sandbox, { secretKey: `${SECRET_KEY}-not` });
    const error = await wrong.query({ profitReference: "x" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ respCode: "40100" });
  });
});
