import { parseJson, stringifyJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { decodeWire, encodeWire } from "../codec";
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

  it("fills payoutStatus from the status wording, by the schema and by the fast path alike", () => {
    const base = { merchantNo: "1", payoutId: "2", requestId: "r", sign: SIGN };
    for (const [status, letter] of Object.entries(payoutStatusOfNotificationStatus)) {
      const wire = { ...base, status };
      const n = v.parse(payoutResultNotification.decode, wire);
      expect(n.payoutStatus, status).toBe(letter);
      expect(n.status).toBe(status);
      const fast = decodeWire(payoutResultNotification, parseJson(stringifyJson(wire)));
      expect(fast.success && fast.output).toStrictEqual(n);
      expect(Object.keys(fast.success ? fast.output : {})).toEqual(Object.keys(n));
    }
    // The wording in capitals is the same wording: filled, and held to agree.
    const upper = v.parse(payoutResultNotification.decode, { ...base, status: "FAILURE" });
    expect([upper.payoutStatus, upper.status]).toEqual(["F", "FAILURE"]);
    const contradicting = { ...base, payoutStatus: "S", status: "FAILURE" };
    expect(v.safeParse(payoutResultNotification.decode, contradicting).success).toBe(false);
    expect(decodeWire(payoutResultNotification, contradicting).success).toBe(false);
    // An unknown wording is kept and fills nothing; payoutStatus alone is kept as it is.
    const later = v.parse(payoutResultNotification.decode, { ...base, status: "cancelled" });
    expect([later.payoutStatus, later.status]).toEqual([undefined, "cancelled"]);
    const letterOnly = v.parse(payoutResultNotification.decode, { ...base, payoutStatus: "P" });
    expect([letterOnly.payoutStatus, letterOnly.status]).toEqual(["P", undefined]);
    // Writing sends the fields as given: nothing is added to what the service would sign.
    const out = encodeWire(payoutResultNotification, { ...base, status: "failure" });
    expect(out.success && Object.keys(out.output)).not.toContain("payoutStatus");
  });

  it("refuses payoutStatus and status that contradict, both ways, naming both fields", () => {
    const base = { merchantNo: "1", payoutId: "2", requestId: "r", sign: SIGN };
    for (const [payoutStatus, status] of [
      ["S", "failure"],
      ["F", "success"],
      ["F", "processing"],
      ["X", "success"],
    ]) {
      const n = { ...base, payoutStatus, status };
      for (const result of [
        v.safeParse(payoutResultNotification.decode, n),
        decodeWire(payoutResultNotification, parseJson(stringifyJson(n))),
        encodeWire(payoutResultNotification, n),
      ]) {
        expect(result.success, `${payoutStatus}/${status}`).toBe(false);
        const issues = result.issues?.map((i) => `${v.getDotPath(i)}: ${i.message}`);
        expect(issues).toEqual([
          "payoutStatus: must agree with status (success → S, failure → F, processing → P)",
        ]);
      }
    }
    // A wording this SDK does not know cannot contradict anything.
    expect(
      v.safeParse(payoutResultNotification.decode, { ...base, payoutStatus: "S", status: "done" })
        .success,
    ).toBe(true);
  });
});
