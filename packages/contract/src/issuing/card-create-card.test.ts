import { parseJson, stringifyJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { cardCreateCard as endpoint } from "./card-create-card";

const base = {
  clientRequestId: "card-1",
  cardholderId: "1953712585351499776",
  productId: "1953712585351499001",
};

describe("issuing card/createCard", () => {
  it("declares a keyed write", () => {
    expect(endpoint.name).toBe("issuing.card.createCard");
    expect(endpoint.path).toBe("/card/createCard");
    expect(endpoint.kind).toBe("write");
    expect(endpoint.idempotencyKey).toEqual({ field: "clientRequestId", maxLength: 64 });
    expect("merchantNo" in endpoint).toBe(false);
  });

  it("sends both ids as bare 64-bit numbers and the deposit with its digits", () => {
    const wire = v.parse(endpoint.request, { ...base, amount: "100.10" });
    expect(stringifyJson(wire)).toBe(
      '{"clientRequestId":"card-1","cardholderId":1953712585351499776,"productId":1953712585351499001,"amount":100.10}',
    );
  });

  it("takes an initial deposit greater than 0 with at most 2 decimals", () => {
    expect(v.safeParse(endpoint.request, { ...base, amount: "0.01" }).success).toBe(true);
    for (const amount of ["0", "-1", "1.001"]) {
      expect(v.safeParse(endpoint.request, { ...base, amount }).success, amount).toBe(false);
    }
    const { productId: _, ...noProduct } = base;
    expect(v.safeParse(endpoint.request, { ...noProduct, amount: "1" }).success).toBe(false);
  });

  it("decodes the new card id without losing digits", () => {
    const data = v.parse(endpoint.response, parseJson('{"cardId":1953712585351499776}'));
    expect(data.cardId).toBe("1953712585351499776");
  });
});
