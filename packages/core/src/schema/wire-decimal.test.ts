import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { isJsonNumber, type JsonNumber, jsonNumber } from "../json/json-number";
import { parseJson } from "../json/parse-json";
import { stringifyJson } from "../json/stringify-json";
import { decimalFromWire, decimalString, decimalToWire } from "./wire-decimal";

const messageOf = (result: v.SafeParseResult<v.GenericSchema>) => result.issues?.[0]?.message;

describe("decimalFromWire", () => {
  const schema = decimalFromWire();

  it.each([
    [100.1, "100.1"],
    [0, "0"],
    [-5.25, "-5.25"],
    [1e21, "1000000000000000000000"],
    [jsonNumber("100.10"), "100.10"],
    [jsonNumber("12345678901234567.89"), "12345678901234567.89"],
    [jsonNumber("1E+2"), "100"],
    ["-100.50", "-100.50"],
    ["0.00", "0.00"],
    // The sign of a zero is the wire's too (a debit of nothing).
    [jsonNumber("-0.00"), "-0.00"],
    ["-0.00", "-0.00"],
    [jsonNumber("-0"), "-0"],
    [-0, "-0"],
  ])("accepts %o as %s", (input, expected) => {
    expect(v.safeParse(schema, input)).toMatchObject({ success: true, output: expected });
  });

  it("reads amounts from parseJson output digit for digit", () => {
    const body = parseJson('{"amount":100.10,"fee":0.5}') as Record<string, unknown>;
    const parsed = v.parse(v.object({ amount: decimalFromWire(), fee: decimalFromWire() }), body);
    expect(parsed).toEqual({ amount: "100.10", fee: "0.5" });
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, "abc", "", "1,000", null, true])(
    "rejects %o",
    (input) => {
      const result = v.safeParse(schema, input);
      expect(result.success).toBe(false);
      expect(messageOf(result)).toMatch(/^must be a decimal amount/);
    },
  );
});

describe("decimalToWire", () => {
  const schema = decimalToWire({ maxScale: 2, sign: "positive" });

  it("outputs a JsonNumber written digit for digit", () => {
    const output = v.parse(schema, "100.10");
    expect(isJsonNumber(output)).toBe(true);
    expect((output as JsonNumber).text).toBe("100.10");
    expect(stringifyJson({ amount: output })).toBe('{"amount":100.10}');
  });

  it("names the rule that failed", () => {
    expect(messageOf(v.safeParse(schema, "0"))).toBe("must be greater than 0");
    expect(messageOf(v.safeParse(schema, "1.005"))).toBe("must have at most 2 decimal places");
    expect(messageOf(v.safeParse(schema, "1e5"))).toBe('must be a decimal string such as "100.50"');
  });

  it("rejects a JS number with a message to pass a decimal string", () => {
    const result = v.safeParse(schema, 0.1);
    expect(result.success).toBe(false);
    expect(messageOf(result)).toContain('must be a decimal string such as "100.50"');
    expect(messageOf(result)).toContain("pass amounts as strings");
  });
});

describe("decimalString", () => {
  const schema = decimalString({ maxScale: 2, sign: "nonNegative" });

  it("outputs the string unchanged", () => {
    expect(v.parse(schema, "0.10")).toBe("0.10");
    expect(v.parse(schema, "0")).toBe("0");
  });

  it("rejects rule breaks and JS numbers", () => {
    expect(messageOf(v.safeParse(schema, "-1"))).toBe("must be 0 or greater");
    expect(messageOf(v.safeParse(schema, "1.001"))).toBe("must have at most 2 decimal places");
    expect(messageOf(v.safeParse(schema, 0.1))).toContain("pass amounts as strings");
  });
});
