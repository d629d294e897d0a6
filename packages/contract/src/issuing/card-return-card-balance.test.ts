import { parseJson, stringifyJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { cardReturnCardBalance as endpoint } from "./card-return-card-balance";

const base = { clientRequestId: "ret-1", cardId: "1953712585351499776" };

describe("issuing card/returnCardBalance", () => {
  it("declares a keyed write", () => {
    expect(endpoint.name).toBe("issuing.card.returnCardBalance");
    expect(endpoint.path).toBe("/card/returnCardBalance");
    expect(endpoint.kind).toBe("write");
    expect(endpoint.idempotencyKey).toEqual({ field: "clientRequestId", maxLength: 64 });
  });

  it("accepts 0.01 and 100.10, keeping the digits on the wire", () => {
    expect(v.safeParse(endpoint.request, { ...base, amount: "0.01" }).success).toBe(true);
    const wire = v.parse(endpoint.request, { ...base, amount: "100.10" });
    expect(stringifyJson(wire)).toBe(
      '{"clientRequestId":"ret-1","cardId":1953712585351499776,"amount":100.10}',
    );
  });

  it("rejects 0, -1 and 1.001 (greater than 0, at most 2 decimal places)", () => {
    for (const amount of ["0", "-1", "1.001"]) {
      expect(v.safeParse(endpoint.request, { ...base, amount }).success, amount).toBe(false);
    }
  });

  it("holds clientRequestId to 64 characters", () => {
    const at = { ...base, clientRequestId: "k".repeat(64), amount: "1" };
    expect(v.safeParse(endpoint.request, at).success).toBe(true);
    expect(v.safeParse(endpoint.request, { ...at, clientRequestId: "k".repeat(65) }).success).toBe(
      false,
    );
  });

  it("decodes the operate record id", () => {
    const data = v.parse(endpoint.response, parseJson('{"operateRecordId":1953712585351499777}'));
    expect(data.operateRecordId).toBe("1953712585351499777");
  });
});
