import { parseJson, stringifyJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { profitShare as endpoint } from "./profit-share";

const receiver = { profitDetailReference: "d1", type: "MERCHANT", account: "M2", amount: "10.10" };

const share = {
  profitType: "share",
  merchantNo: "800001",
  currency: "USD",
  profitReference: "p-1",
  receivers: [
    receiver,
    { ...receiver, profitDetailReference: "d2", amount: "0.01", description: "fee" },
  ],
  urlCallback: "https://merchant.example.com/profit",
  gatewayReference: "1953712585351499776",
  profitCompleted: false,
} as const;

const ret = {
  profitType: "return",
  merchantNo: "800001",
  currency: "USD",
  profitReference: "p-2",
  receivers: [receiver],
  profitGatewayReference: "1953712585351499777",
  profitParentReference: "p-1",
} as const;

const without = <T extends object>(value: T, key: string) =>
  Object.fromEntries(Object.entries(value).filter(([k]) => k !== key));

/** Both directions: the client before sending, the sandbox on a wire body. */
function bothWays(params: Record<string, unknown>): [boolean, boolean] {
  const sent = v.safeParse(endpoint.request, params).success;
  const wireBody = { ...params, receivers: JSON.stringify(params.receivers) };
  const received = v.safeParse(endpoint.requestCodec.decode, parseJson(JSON.stringify(wireBody)));
  return [sent, received.success];
}

const result = {
  profitType: "share",
  profitReference: "p-1",
  profitGatewayReference: "1953712585351499777",
  state: "processing",
  currency: "USD",
  receivers: JSON.stringify([
    {
      profitDetailReference: "d1",
      profitDetailGatewayReference: "1953712585351499778",
      type: "MERCHANT",
      amount: "10.10",
      result: "pending",
      failReason: null,
      createdAt: "2026-06-22 10:15:30",
      finishedAt: null,
    },
  ]),
  sign: "a".repeat(64),
};

describe("profitShare /profit/share", () => {
  it("is a signed write keyed by profitReference with merchantNo filled", () => {
    expect(endpoint.name).toBe("profitShare.profit.share");
    expect(endpoint.path).toBe("/profit/share");
    expect(endpoint.auth).toBe("sign");
    expect(endpoint.kind).toBe("write");
    expect(endpoint.idempotencyKey).toEqual({ field: "profitReference", maxLength: 64 });
    expect(endpoint.merchantNo).toBe(true);
  });

  it("accepts a share and a return both ways", () => {
    expect(bothWays(share)).toEqual([true, true]);
    expect(bothWays(without(share, "urlCallback"))).toEqual([true, true]);
    expect(bothWays(ret)).toEqual([true, true]);
  });

  it("needs gatewayReference and profitCompleted for a share", () => {
    expect(bothWays(without(share, "gatewayReference"))).toEqual([false, false]);
    expect(bothWays(without(share, "profitCompleted"))).toEqual([false, false]);
    expect(bothWays({ ...share, profitCompleted: "true" })).toEqual([false, false]);
  });

  it("refuses gatewayReference and profitCompleted on a return", () => {
    expect(bothWays({ ...ret, gatewayReference: "1953712585351499776" })).toEqual([false, false]);
    expect(bothWays({ ...ret, profitCompleted: true })).toEqual([false, false]);
    const received = v.safeParse(
      endpoint.requestCodec.decode,
      parseJson(
        JSON.stringify({
          ...ret,
          receivers: JSON.stringify(ret.receivers),
          profitCompleted: false,
        }),
      ),
    );
    expect(received.issues?.[0]?.message).toBe("must not be sent when profitType is return");
  });

  it("needs profitGatewayReference and profitParentReference for a return", () => {
    expect(bothWays(without(ret, "profitGatewayReference"))).toEqual([false, false]);
    expect(bothWays(without(ret, "profitParentReference"))).toEqual([false, false]);
  });

  it("rejects an unknown profitType", () => {
    expect(bothWays({ ...ret, profitType: "refund" })).toEqual([false, false]);
  });

  it("encodes receivers as a JSON string and decodes them back with their digits", () => {
    const wire = v.parse(endpoint.request, share);
    expect(typeof wire.receivers).toBe("string");
    expect(wire.receivers).toBe(
      '[{"profitDetailReference":"d1","type":"MERCHANT","account":"M2","amount":"10.10"},{"profitDetailReference":"d2","type":"MERCHANT","account":"M2","amount":"0.01","description":"fee"}]',
    );
    const back = v.parse(endpoint.requestCodec.decode, parseJson(stringifyJson(wire)));
    expect(back.receivers[0]?.amount).toBe("10.10");
    expect(back).toEqual(share);
  });

  it("needs at least one receiver", () => {
    expect(bothWays({ ...share, receivers: [] })).toEqual([false, false]);
    const notJson = { ...share, receivers: "not json" };
    const received = v.safeParse(endpoint.requestCodec.decode, parseJson(JSON.stringify(notJson)));
    expect(received.success).toBe(false);
  });

  it("holds receiver amounts to > 0 with at most 2 decimals", () => {
    const withAmount = (amount: string) => ({ ...share, receivers: [{ ...receiver, amount }] });
    expect(bothWays(withAmount("0"))).toEqual([false, false]);
    expect(bothWays(withAmount("0.00"))).toEqual([false, false]);
    expect(bothWays(withAmount("1.001"))).toEqual([false, false]);
    expect(bothWays(withAmount("-1"))).toEqual([false, false]);
    expect(bothWays(withAmount("0.01"))).toEqual([true, true]);
    expect(bothWays(withAmount("1.00"))).toEqual([true, true]);
  });

  it("holds currency to three capital letters and profitReference to 64 characters", () => {
    expect(bothWays({ ...share, currency: "usd" })).toEqual([false, false]);
    expect(bothWays({ ...share, currency: "USDT" })).toEqual([false, false]);
    expect(bothWays({ ...share, profitReference: "x".repeat(64) })).toEqual([true, true]);
    expect(bothWays({ ...share, profitReference: "x".repeat(65) })).toEqual([false, false]);
    expect(bothWays({ ...share, urlCallback: "merchant.example.com" })).toEqual([false, false]);
  });

  it("does not let a caller put sign in the request", () => {
    expect(v.safeParse(endpoint.request, { ...share, sign: "x" }).success).toBe(false);
  });

  it("decodes the result data with receivers as objects", () => {
    const data = v.parse(endpoint.response, parseJson(JSON.stringify(result)));
    expect(data.state).toBe("processing");
    expect(data.receivers).toEqual([
      {
        profitDetailReference: "d1",
        profitDetailGatewayReference: "1953712585351499778",
        type: "MERCHANT",
        amount: "10.10",
        result: "pending",
        failReason: null,
        createdAt: "2026-06-22 10:15:30",
        finishedAt: null,
      },
    ]);
    expect(data.sign).toBe(result.sign);
  });

  it("encodes the result for the sandbox with receivers back as JSON text", () => {
    const data = v.parse(endpoint.response, parseJson(JSON.stringify(result)));
    expect(stringifyJson(v.parse(endpoint.responseCodec.encode, data))).toBe(
      JSON.stringify(result),
    );
  });

  it("reads failReason and finishedAt as null when the service leaves them out", () => {
    const receivers = JSON.stringify([
      {
        profitDetailReference: "d1",
        profitDetailGatewayReference: "g1",
        type: "MERCHANT",
        amount: "10.10",
        result: "success",
        createdAt: "2026-06-22 10:15:30",
      },
    ]);
    const data = v.parse(endpoint.response, { ...result, receivers });
    expect(data.receivers[0]?.failReason).toBeNull();
    expect(data.receivers[0]?.finishedAt).toBeNull();
  });
});
