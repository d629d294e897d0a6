import { profitQuery, profitShare } from "@merchantkit/contract";
import { describe, expect, it } from "vitest";
import { errorOf } from "../testing/area-runtime";
import { receivers, setup, share } from "../testing/profit-share-testbed";

describe("profit share return", () => {
  const back = (
    profitReference: string,
    parent: { profitGatewayReference: string },
    over: Record<string, unknown> = {},
  ) => ({
    profitType: "return",
    currency: "USD",
    profitReference,
    profitGatewayReference: parent.profitGatewayReference,
    profitParentReference: "ps-1",
    receivers: receivers(["acct-a", "10.00"]),
    ...over,
  });

  it("reverses part of a share, refuses more than the share still holds (42203), frees the amount", async () => {
    const { call, advance, pushes } = await setup();
    const original = call(
      profitShare,
      share("ps-1", { receivers: receivers(["acct-a", "30.00"], ["acct-b", "20.00"]) }),
    );
    const r1 = call(
      profitShare,
      back("rt-1", original, { urlCallback: "https://cb.example/return" }),
    );
    expect(r1).toMatchObject({
      profitType: "return",
      profitReference: "rt-1",
      state: "processing",
    });
    expect(
      errorOf(() =>
        call(profitShare, back("rt-2", original, { receivers: receivers(["acct-a", "20.01"]) })),
      ),
    ).toEqual({
      code: "42203",
      message: "return of 20.01 from account acct-a exceeds the 20.00 the share holds for it",
    });
    expect(
      errorOf(() =>
        call(profitShare, back("rt-3", original, { receivers: receivers(["acct-z", "1.00"]) })),
      ).code,
    ).toBe("42203");
    expect(
      errorOf(() =>
        call(
          profitShare,
          back("rt-4", original, { receivers: receivers(["acct-a", "15.00"], ["acct-a", "5.01"]) }),
        ),
      ).code,
    ).toBe("42203");
    expect(
      call(
        profitShare,
        back("rt-5", original, { receivers: receivers(["acct-a", "20.00"], ["acct-b", "20.00"]) }),
      ).state,
    ).toBe("processing");
    advance(2_000);
    expect(call(profitQuery, { profitReference: "rt-1" }).state).toBe("success");
    expect(pushes.profitShare.map((p) => [p.body.profitReference, p.url])).toEqual([
      ["ps-1", "https://merchant.example/profit"],
      ["rt-1", "https://cb.example/return"],
      ["rt-5", "https://merchant.example/profit"],
    ]);
    // Everything returned: the payment's full 100.00 can be shared again.
    expect(
      call(profitShare, share("ps-2", { receivers: receivers(["acct-c", "100.00"]) })).state,
    ).toBe("processing");
  });

  it("40401 when the references do not name a share of this merchant", async () => {
    const { call } = await setup();
    const original = call(profitShare, share("ps-1"));
    expect(
      errorOf(() => call(profitShare, back("rt-1", { profitGatewayReference: "123" }))),
    ).toEqual({
      code: "40401",
      message: "original profit share not found",
    });
    expect(
      errorOf(() => call(profitShare, back("rt-2", original, { profitParentReference: "other" })))
        .code,
    ).toBe("40401");
    expect(
      errorOf(() => call(profitShare, back("rt-3", original, { merchantNo: "M1000002" }))).code,
    ).toBe("40401");
    const r = call(profitShare, back("rt-4", original));
    expect(
      errorOf(() =>
        call(
          profitShare,
          back(
            "rt-5",
            { profitGatewayReference: r.profitGatewayReference },
            { profitParentReference: "rt-4" },
          ),
        ),
      ).code,
    ).toBe("40401");
    expect(errorOf(() => call(profitShare, back("rt-6", original, { currency: "EUR" }))).code).toBe(
      "40000",
    );
  });

  it("a receiver whose share failed has nothing to return; partial states", async () => {
    const { call, advance } = await setup();
    const original = call(
      profitShare,
      share("ps-1", { receivers: receivers(["acct-a", "30.00"], ["FAIL", "20.00"]) }),
    );
    // accepted while the share is still pending (it holds the amount until it fails) …
    const early = call(
      profitShare,
      back("rt-1", original, { receivers: receivers(["acct-a", "5.00"], ["FAIL", "5.00"]) }),
    );
    advance(2_000);
    const shared = call(profitQuery, { profitReference: "ps-1" });
    expect(shared.state).toBe("partial");
    expect(shared.receivers[1]).toMatchObject({
      result: "failed",
      failReason: expect.stringMatching(/account fail/),
    });
    // … and it fails for that receiver when it settles.
    const returned = call(profitQuery, { profitGatewayReference: early.profitGatewayReference });
    expect(returned.state).toBe("partial");
    expect(returned.receivers.map((r) => r.result)).toEqual(["success", "failed"]);
    // Once failed, the share holds nothing for that account.
    expect(
      errorOf(() =>
        call(profitShare, back("rt-2", original, { receivers: receivers(["FAIL", "0.01"]) })),
      ).code,
    ).toBe("42203");
  });
});

describe("profit query", () => {
  it("equals the stored state; unknown, mismatching or other merchant's → 40401", async () => {
    const { call, area } = await setup();
    const a = call(profitShare, share("ps-1"));
    const b = call(profitShare, share("ps-2", { receivers: receivers(["x", "1.00"]) }));
    expect(call(profitQuery, { profitReference: "ps-1" })).toEqual(a);
    expect(
      call(profitQuery, {
        profitReference: "ps-1",
        profitGatewayReference: a.profitGatewayReference,
      }),
    ).toEqual(a);
    expect(
      errorOf(() =>
        call(profitQuery, {
          profitReference: "ps-1",
          profitGatewayReference: b.profitGatewayReference,
        }),
      ).code,
    ).toBe("40401");
    expect(errorOf(() => call(profitQuery, { profitReference: "nope" })).code).toBe("40401");
    expect(
      errorOf(() => call(profitQuery, { profitReference: "ps-1", merchantNo: "M1000002" })).code,
    ).toBe("40401");
    const dump = area.dump() as { payments: unknown[]; shares: Record<string, unknown>[] };
    expect(dump.payments).toHaveLength(1);
    expect(dump.shares.map((s) => s.profitReference)).toEqual(["ps-1", "ps-2"]);
    expect(dump.shares[0]).toMatchObject({
      gatewayReference: "1953712585351499776",
      profitCompleted: false,
      merchantNo: "M1000001",
    });
  });
});
