import { parseJson, stringifyJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { cardDeposit as endpoint } from "./card-deposit";

const base = { clientRequestId: "dep-1", cardId: "1953712585351499776" };

describe("issuing card/deposit", () => {
  it("declares a keyed write", () => {
    expect(endpoint.name).toBe("issuing.card.deposit");
    expect(endpoint.path).toBe("/card/deposit");
    expect(endpoint.kind).toBe("write");
    expect(endpoint.idempotencyKey).toEqual({ field: "clientRequestId", maxLength: 64 });
  });

  it("sends the amount as a bare JSON number with its digits", () => {
    const wire = v.parse(endpoint.request, { ...base, amount: "100.10" });
    expect(stringifyJson(wire)).toBe(
      '{"clientRequestId":"dep-1","cardId":1953712585351499776,"amount":100.10}',
    );
    expect(v.safeParse(endpoint.request, { ...base, amount: "0.01" }).success).toBe(true);
  });

  it("takes only amounts greater than 0 with at most 2 decimals", () => {
    for (const amount of ["0", "0.00", "-1", "1.001"]) {
      expect(v.safeParse(endpoint.request, { ...base, amount }).success, amount).toBe(false);
    }
    // A JS number could already have lost digits: amounts are decimal strings in the SDK.
    expect(v.safeParse(endpoint.request, { ...base, amount: 1 }).success).toBe(false);
  });

  it("the sandbox reads the wire body with the same rule", () => {
    const ok = v.parse(
      endpoint.requestCodec.decode,
      parseJson('{"clientRequestId":"d","cardId":7,"amount":100.10}'),
    );
    expect(ok).toEqual({ clientRequestId: "d", cardId: "7", amount: "100.10" });
    for (const amount of ["0", "-1", "1.001"]) {
      const body = parseJson(`{"clientRequestId":"d","cardId":7,"amount":${amount}}`);
      expect(v.safeParse(endpoint.requestCodec.decode, body).success, amount).toBe(false);
    }
  });

  it("decodes the operate record id", () => {
    const data = v.parse(endpoint.response, parseJson('{"operateRecordId":1953712585351499777}'));
    expect(data.operateRecordId).toBe("1953712585351499777");
  });
});
