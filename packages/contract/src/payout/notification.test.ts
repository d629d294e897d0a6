import { parseJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { payoutResultNotification, payoutStatusOfNotificationStatus } from "./notification";

const SIGN = "a".repeat(64);

describe("payout result notification", () => {
  it("reads the designed payload with 64-bit ids, exact amounts and unknown fields", () => {
    const n = v.parse(
      payoutResultNotification.decode,
      parseJson(
        `{"merchantNo":"800209","payoutId":1953712585351499776,"requestId":"r1","payoutStatus":"F","status":"failure","errorCode":"E01","errorMsg":"closed","targetAmount":"100.10","targetCurrency":"PHP","finishTime":"2025-01-02 03:04:05","sign":"${SIGN}","later":"x"}`,
      ),
    );
    expect(n.payoutId).toBe("1953712585351499776");
    expect(n.targetAmount).toBe("100.10");
    expect((n as Record<string, unknown>).later).toBe("x");
    expect(payoutStatusOfNotificationStatus[n.status as "failure"]).toBe(n.payoutStatus);
  });

  it("needs a status in either form and the sign", () => {
    const base = { merchantNo: "1", payoutId: "2", requestId: "r", sign: SIGN };
    expect(v.safeParse(payoutResultNotification.decode, base).success).toBe(false);
    expect(
      v.safeParse(payoutResultNotification.decode, { ...base, status: "success" }).success,
    ).toBe(true);
    expect(
      v.safeParse(payoutResultNotification.decode, { ...base, payoutStatus: "S" }).success,
    ).toBe(true);
    const { sign: _, ...unsigned } = base;
    expect(
      v.safeParse(payoutResultNotification.decode, { ...unsigned, status: "success" }).success,
    ).toBe(false);
  });
});
