import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { jsonDecoded, jsonEncoded } from "./json-encoded";
import { decimalFromWire, decimalToWire } from "./wire-decimal";
import { idFromWire, idToWire } from "./wire-id";

const receiver = v.object({ firstName: v.string(), lastName: v.string() });

describe("jsonEncoded", () => {
  it("outputs the JSON text of the validated value", () => {
    expect(v.parse(jsonEncoded(receiver), { firstName: "Ada", lastName: "Lovelace" })).toBe(
      '{"firstName":"Ada","lastName":"Lovelace"}',
    );
  });

  it("writes nested ids and amounts as bare numbers digit for digit", () => {
    const receivers = v.array(v.object({ id: idToWire(), amount: decimalToWire({ maxScale: 2 }) }));
    expect(v.parse(jsonEncoded(receivers), [{ id: "1953712585351499776", amount: "5.00" }])).toBe(
      '[{"id":1953712585351499776,"amount":5.00}]',
    );
  });

  it("reports the inner schema's issues with their path", () => {
    const result = v.safeParse(jsonEncoded(receiver), { firstName: "Ada" });
    expect(result.success).toBe(false);
    expect(result.issues?.[0]?.path?.[0]?.key).toBe("lastName");
  });
});

describe("jsonDecoded", () => {
  const account = v.object({
    cardNumber: v.string(),
    beneficiaryId: idFromWire(),
    limit: decimalFromWire(),
  });

  it("parses JSON text losslessly and validates it", () => {
    const text = '{"cardNumber":"6222","beneficiaryId":1953712585351499776,"limit":100.10}';
    expect(v.parse(jsonDecoded(account), text)).toEqual({
      cardNumber: "6222",
      beneficiaryId: "1953712585351499776",
      limit: "100.10",
    });
  });

  it("accepts an already-decoded object", () => {
    expect(
      v.parse(jsonDecoded(account), { cardNumber: "6222", beneficiaryId: "7", limit: "1" }),
    ).toEqual({
      cardNumber: "6222",
      beneficiaryId: "7",
      limit: "1",
    });
  });

  it("gives a clear issue for text that is not JSON", () => {
    const result = v.safeParse(jsonDecoded(account), "{not json");
    expect(result.success).toBe(false);
    expect(result.issues?.[0]?.message).toBe("must be a JSON-encoded object");
    expect(v.safeParse(jsonDecoded(v.array(v.string())), "[").issues?.[0]?.message).toBe(
      "must be a JSON-encoded array",
    );
  });

  it("reports schema issues inside the decoded value", () => {
    const result = v.safeParse(
      jsonDecoded(account),
      '{"cardNumber":"6222","beneficiaryId":1.5,"limit":"1"}',
    );
    expect(result.success).toBe(false);
    expect(result.issues?.[0]?.path?.[0]?.key).toBe("beneficiaryId");
  });

  it("round-trips through jsonEncoded", () => {
    const wire = v.object({ id: idToWire(), note: v.string() });
    const text = v.parse(jsonEncoded(wire), { id: "1953712585351499776", note: "x" });
    expect(v.parse(jsonDecoded(v.object({ id: idFromWire(), note: v.string() })), text)).toEqual({
      id: "1953712585351499776",
      note: "x",
    });
  });
});
