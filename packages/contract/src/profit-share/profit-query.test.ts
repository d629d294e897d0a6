import { parseJson, stringifyJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { profitQuery as endpoint } from "./profit-query";

describe("profitShare /profit/query", () => {
  it("is a signed read that carries merchantNo", () => {
    expect(endpoint.name).toBe("profitShare.profit.query");
    expect(endpoint.path).toBe("/profit/query");
    expect(endpoint.kind).toBe("read");
    expect(endpoint.auth).toBe("sign");
    expect(endpoint.merchantNo).toBe(true);
    expect("idempotencyKey" in endpoint).toBe(false);
  });

  it("needs profitReference or profitGatewayReference, either way round", () => {
    const cases = [
      [{ merchantNo: "800001" }, false],
      [{ merchantNo: "800001", profitReference: "p-1" }, true],
      [{ merchantNo: "800001", profitGatewayReference: "1953712585351499777" }, true],
      [
        {
          merchantNo: "800001",
          profitReference: "p-1",
          profitGatewayReference: "1953712585351499778",
        },
        true,
      ],
    ] as const;
    for (const [params, ok] of cases) {
      expect(v.safeParse(endpoint.request, params).success).toBe(ok);
      const received = v.safeParse(endpoint.requestCodec.decode, parseJson(JSON.stringify(params)));
      expect(received.success).toBe(ok);
    }
  });

  it("writes the request as given and rejects unknown keys", () => {
    const wire = v.parse(endpoint.request, { merchantNo: "800001", profitReference: "p-1" });
    expect(stringifyJson(wire)).toBe('{"merchantNo":"800001","profitReference":"p-1"}');
    const typo = { merchantNo: "800001", profitRef: "p-1", profitReference: "p-1" };
    expect(v.safeParse(endpoint.request, typo).success).toBe(false);
  });

  it("decodes a final result with a failed receiver", () => {
    const body = {
      profitType: "return",
      profitReference: "p-2",
      profitGatewayReference: "g2",
      state: "partial",
      currency: "USD",
      receivers: JSON.stringify([
        {
          profitDetailReference: "d1",
          profitDetailGatewayReference: "gd1",
          type: "MERCHANT",
          amount: "5.50",
          result: "failed",
          failReason: "account closed",
          createdAt: "2026-06-22 10:15:30",
          finishedAt: "2026-06-22 10:16:00",
        },
      ]),
    };
    const data = v.parse(endpoint.response, parseJson(JSON.stringify(body)));
    expect(data.receivers[0]).toMatchObject({
      result: "failed",
      failReason: "account closed",
      amount: "5.50",
    });
    expect(data.sign).toBeUndefined();
  });
});
