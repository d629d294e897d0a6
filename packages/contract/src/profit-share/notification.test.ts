import { parseJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { profitShareResultNotification as notification } from "./notification";

const body = {
  merchantNo: "800001",
  profitType: "share",
  profitReference: "p-1",
  profitGatewayReference: "1953712585351499777",
  state: "success",
  currency: "USD",
  receivers: JSON.stringify([
    {
      profitDetailReference: "d1",
      profitDetailGatewayReference: "gd1",
      type: "MERCHANT",
      amount: "10.10",
      result: "success",
      failReason: null,
      createdAt: "2026-06-22 10:15:30",
      finishedAt: "2026-06-22 10:16:00",
    },
  ]),
  sign: "b".repeat(64),
};

describe("profit share result notification", () => {
  it("decodes the result plus merchantNo and sign, keeping new fields", () => {
    const data = v.parse(
      notification.decode,
      parseJson(JSON.stringify({ ...body, newField: "x" })),
    );
    expect(data.merchantNo).toBe("800001");
    expect(data.receivers[0]?.amount).toBe("10.10");
    expect((data as Record<string, unknown>).newField).toBe("x");
  });

  it("needs merchantNo and sign", () => {
    const { sign: _sign, ...unsigned } = body;
    expect(v.safeParse(notification.decode, unsigned).success).toBe(false);
    const { merchantNo: _m, ...anonymous } = body;
    expect(v.safeParse(notification.decode, anonymous).success).toBe(false);
  });
});
