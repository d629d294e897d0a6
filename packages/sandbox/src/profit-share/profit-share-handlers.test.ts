import { profitQuery, profitShare, profitShareResult } from "@merchantkit/contract";
import { verifySign } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { errorOf } from "../testing/area-runtime";
import { receivers, setup, share } from "../testing/profit-share-testbed";

describe("profit share", () => {
  it("accepts a share as processing/pending with a signed result, then finishes and notifies", async () => {
    const { call, advance, pushes, runtime } = await setup();
    const accepted = call(
      profitShare,
      share("ps-1", { receivers: receivers(["acct-a", "30.00"], ["acct-b", "20.5"]) }),
    );
    expect(accepted).toMatchObject({
      profitType: "share",
      profitReference: "ps-1",
      state: "processing",
      currency: "USD",
    });
    expect(accepted.profitGatewayReference).toMatch(/^\d{19}$/);
    expect(accepted.receivers).toEqual([
      {
        profitDetailReference: "d-acct-a-0",
        profitDetailGatewayReference: expect.stringMatching(/^\d{19}$/),
        type: "MERCHANT",
        amount: "30.00",
        result: "pending",
        failReason: null,
        createdAt: "2026-06-22 10:00:00",
        finishedAt: null,
      },
      expect.objectContaining({ amount: "20.5", result: "pending" }),
    ]);
    // The sign covers the wire form of every other field.
    const wire = v.parse(profitShareResult.encode, accepted) as Record<string, unknown>;
    expect(await verifySign(wire, runtime.config.secretKey)).toBe(true);
    expect(await verifySign({ ...wire, state: "success" }, runtime.config.secretKey)).toBe(false);

    expect(pushes.profitShare).toHaveLength(0);
    advance(1_999);
    expect(call(profitQuery, { profitReference: "ps-1" }).state).toBe("processing");
    advance(1);
    const done = call(profitQuery, { profitGatewayReference: accepted.profitGatewayReference });
    expect(done.state).toBe("success");
    expect(done.receivers.map((r) => [r.result, r.finishedAt, r.failReason])).toEqual([
      ["success", "2026-06-22 10:00:02", null],
      ["success", "2026-06-22 10:00:02", null],
    ]);
    expect(pushes.profitShare).toHaveLength(1);
    const { sign: _sign, ...unsigned } = done;
    expect(pushes.profitShare[0]).toEqual({
      url: "https://merchant.example/profit",
      body: { ...unsigned, merchantNo: "M1000001" },
    });
  });

  it("profitCompleted=false then true; a further share is rejected with 42202", async () => {
    const { call } = await setup();
    call(profitShare, share("ps-1"));
    call(
      profitShare,
      share("ps-2", { profitCompleted: true, receivers: receivers(["acct-b", "10.00"]) }),
    );
    expect(
      errorOf(() => call(profitShare, share("ps-3", { receivers: receivers(["acct-c", "1.00"]) }))),
    ).toEqual({
      code: "42202",
      message: "profit share already completed for this payment",
    });
  });

  it("the receivers plus earlier shares must fit in the payment amount (42203)", async () => {
    const { call, advance } = await setup();
    call(profitShare, share("ps-1", { receivers: receivers(["acct-a", "60.00"]) }));
    expect(
      errorOf(() =>
        call(
          profitShare,
          share("ps-2", { receivers: receivers(["acct-b", "30.00"], ["acct-c", "10.01"]) }),
        ),
      ),
    ).toEqual({
      code: "42203",
      message: "receivers total 40.01 exceeds the 40.00 USD left to share",
    });
    call(profitShare, share("ps-3", { receivers: receivers(["fail", "40.00"]) }));
    expect(
      errorOf(() => call(profitShare, share("ps-4", { receivers: receivers(["acct-d", "0.01"]) })))
        .code,
    ).toBe("42203");
    // The failed receiver moved nothing, so its 40.00 is free again.
    advance(2_000);
    expect(call(profitQuery, { profitReference: "ps-3" })).toMatchObject({ state: "failed" });
    expect(
      call(profitShare, share("ps-5", { receivers: receivers(["acct-d", "40.00"]) })).state,
    ).toBe("processing");
  });

  it("rejects unknown payments (40400), other merchants' (40400), not enabled (42201), other currency and no notify URL (40000)", async () => {
    const { call, register } = await setup();
    expect(errorOf(() => call(profitShare, share("x1", { gatewayReference: "1" }))).code).toBe(
      "40400",
    );
    expect(errorOf(() => call(profitShare, share("x2", { merchantNo: "M1000002" }))).code).toBe(
      "40400",
    );
    await register({ gatewayReference: "2", amount: "5", currency: "USD", profitShare: false });
    expect(errorOf(() => call(profitShare, share("x3", { gatewayReference: "2" }))).code).toBe(
      "42201",
    );
    expect(errorOf(() => call(profitShare, share("x4", { currency: "EUR" })))).toEqual({
      code: "40000",
      message: "currency must be the payment's currency USD",
    });
    await register({ gatewayReference: "3", amount: "5", currency: "USD", profitShare: true });
    expect(
      errorOf(() =>
        call(profitShare, share("x5", { gatewayReference: "3", receivers: receivers(["a", "1"]) })),
      ).message,
    ).toMatch(/urlCallback is required/);
    const withUrl = call(
      profitShare,
      share("x6", {
        gatewayReference: "3",
        urlCallback: "https://cb.example/x",
        receivers: receivers(["a", "1"]),
      }),
    );
    expect(withUrl.state).toBe("processing");
  });

  it("a profitReference is unique across merchants and operation types (40900)", async () => {
    const { call, register } = await setup();
    const first = call(profitShare, share("ref-1"));
    await register({
      gatewayReference: "9",
      merchantNo: "M1000002",
      amount: "50",
      currency: "USD",
      profitShare: true,
      profitShareNotifyUrl: "https://c.example",
    });
    expect(
      errorOf(() =>
        call(profitShare, share("ref-1", { merchantNo: "M1000002", gatewayReference: "9" })),
      ),
    ).toEqual({
      code: "40900",
      message: "duplicate profitReference",
    });
    expect(
      errorOf(() =>
        call(profitShare, {
          profitType: "return",
          currency: "USD",
          profitReference: "ref-1",
          profitGatewayReference: first.profitGatewayReference,
          profitParentReference: "ref-1",
          receivers: receivers(["acct-a", "1.00"]),
        }),
      ).code,
    ).toBe("40900");
  });
});

describe("admin payments", () => {
  it("registers payments with a generated 64-bit id, rejects bad bodies and duplicates", async () => {
    const { register } = await setup();
    const made = await register({ amount: 12.5, currency: "SGD", profitShare: true });
    expect(made.status).toBe(201);
    expect(made.body.payment).toMatchObject({
      amount: "12.5",
      currency: "SGD",
      merchantNo: "M1000001",
      completed: false,
    });
    expect(made.body.payment.gatewayReference).toMatch(/^\d{19}$/);
    expect((await register({ amount: "0", currency: "USD", profitShare: true })).status).toBe(400);
    expect((await register({ amount: "1.001", currency: "USD", profitShare: true })).status).toBe(
      400,
    );
    expect((await register({ amount: "1", currency: "usd", profitShare: true })).status).toBe(400);
    expect((await register({ amount: "1", currency: "USD" })).status).toBe(400);
    const dup = await register({
      gatewayReference: "1953712585351499776",
      amount: "1",
      currency: "USD",
      profitShare: true,
    });
    expect(dup.status).toBe(409);
  });
});
