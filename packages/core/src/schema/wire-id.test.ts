import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { isJsonNumber, type JsonNumber, jsonNumber } from "../json/json-number";
import { parseJson } from "../json/parse-json";
import { stringifyJson } from "../json/stringify-json";
import { idFromWire, idString, idToWire } from "./wire-id";

const messageOf = (result: v.SafeParseResult<v.GenericSchema>) => result.issues?.[0]?.message;

describe("idFromWire", () => {
  const schema = idFromWire();

  it.each([
    [jsonNumber("1953712585351499776"), "1953712585351499776"],
    ["1953712585351499776", "1953712585351499776"],
    [42, "42"],
    [0, "0"],
    [9007199254740991, "9007199254740991"],
    [1953712585351499776n, "1953712585351499776"],
  ])("accepts %o as %s", (input, digits) => {
    expect(v.safeParse(schema, input)).toMatchObject({ success: true, output: digits });
  });

  it("rejects a JS number past 2^53, whose digits are already lost", () => {
    const result = v.safeParse(schema, 2 ** 60);
    expect(result.success).toBe(false);
    expect(messageOf(result)).toContain("beyond JavaScript's safe integer range");
    expect(messageOf(result)).toContain("parseJson");
  });

  it.each([
    1.5,
    -1,
    Number.NaN,
    jsonNumber("1.5"),
    jsonNumber("1e5"),
    jsonNumber("-3"),
    "12a",
    "",
    "-1",
    null,
    {},
  ])("rejects %o", (input) => {
    const result = v.safeParse(schema, input);
    expect(result.success).toBe(false);
    expect(messageOf(result)).toMatch(/id/);
  });
});

describe("idToWire", () => {
  const schema = idToWire();

  it("outputs a JsonNumber that stringifyJson writes as a bare number", () => {
    const result = v.safeParse(schema, "1953712585351499776");
    expect(result.success).toBe(true);
    expect(isJsonNumber(result.output)).toBe(true);
    expect(stringifyJson({ cardId: result.output })).toBe('{"cardId":1953712585351499776}');
  });

  it("accepts safe numbers and bigints for convenience", () => {
    expect((v.parse(schema, 42) as JsonNumber).text).toBe("42");
    expect((v.parse(schema, 1953712585351499776n) as JsonNumber).text).toBe("1953712585351499776");
  });

  it.each([
    [2 ** 60, "pass the id as a string"],
    ["007", "without leading zeros"],
    ["12.5", "digits"],
    ["", "digits"],
    [1.5, "integer"],
    [-1n, "non-negative"],
    [null, "digit string"],
  ])("rejects %o (%s)", (input, message) => {
    const result = v.safeParse(schema, input);
    expect(result.success).toBe(false);
    expect(messageOf(result)).toContain(message);
  });
});

describe("idString", () => {
  it("accepts strings up to maxLength", () => {
    const schema = idString({ maxLength: 32 });
    expect(v.parse(schema, "req-2024-0001")).toBe("req-2024-0001");
    expect(messageOf(v.safeParse(schema, "x".repeat(33)))).toBe(
      "must be at most 32 characters, got 33",
    );
    expect(messageOf(v.safeParse(schema, ""))).toBe("must not be empty");
  });

  it("leniently accepts integer ids sent as numbers", () => {
    const schema = idString();
    expect(v.parse(schema, jsonNumber("1953712585351499776"))).toBe("1953712585351499776");
    expect(v.parse(schema, 12)).toBe("12");
    expect(v.safeParse(schema, 2 ** 60).success).toBe(false);
    expect(v.safeParse(schema, {}).success).toBe(false);
  });
});

describe("messages for an id past 2^53 given as a JS number", () => {
  // 1953712586351499787 as a JS number prints as 1953712586351499800.
  const unsafe = Number("1953712586351499787");
  const digits = String(unsafe);

  it("never name the value (the README: messages name the field and the rule)", () => {
    for (const schema of [
      idFromWire(),
      idToWire(),
      idString(),
      idString({ direction: "response" }),
    ]) {
      const message = messageOf(v.safeParse(schema, unsafe)) ?? "";
      expect(message).toContain("beyond JavaScript's safe integer range");
      expect(message).not.toContain(digits);
      expect(message).not.toMatch(/\d{6,}/);
    }
  });

  it("advise a request parameter to be passed as a string or bigint, not to parse a body", () => {
    for (const schema of [idToWire(), idString(), idString({ maxLength: 64 })]) {
      const message = messageOf(v.safeParse(schema, unsafe)) ?? "";
      expect(message).toContain("pass the id as a string or a bigint");
      expect(message).not.toContain("parseJson");
    }
  });

  it("advise an answer to be read with parseJson", () => {
    for (const schema of [idFromWire(), idString({ direction: "response" })]) {
      const message = messageOf(v.safeParse(schema, unsafe)) ?? "";
      expect(message).toContain("parseJson");
      expect(message).not.toContain("pass the id");
    }
  });
});

describe("a 64-bit id end to end", () => {
  it("flows parseJson → idFromWire → string → idToWire → stringifyJson with the same digits", () => {
    const body = parseJson('{"data":{"cardId":1953712585351499776}}') as {
      data: { cardId: unknown };
    };
    const response = v.parse(v.object({ cardId: idFromWire() }), body.data);
    expect(response.cardId).toBe("1953712585351499776");
    const request = v.parse(v.object({ cardId: idToWire() }), { cardId: response.cardId });
    expect(stringifyJson(request)).toBe('{"cardId":1953712585351499776}');
  });
});
