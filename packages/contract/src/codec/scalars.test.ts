import { JsonNumber, parseJson, stringifyJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import * as c from "./index";

describe("amount codecs", () => {
  // A debit of zero ("-0.00", an account fee reversed to nothing) is still a debit: lossless
  // means the sign's text too, on both paths (fast and schema) and in both directions.
  const string = c.amountString({ sign: "any" });
  const number = c.amountNumber({ sign: "any" });
  const amounts = [string, c.amountString(), number, c.amountNumber()];

  it("reads a negative zero with its sign, however the wire writes it", () => {
    const wire = parseJson('[-0.00, "-0.00", -0, "-0", -0.0e1, -0]') as unknown[];
    wire[5] = -0; // a JS -0 (JSON.parse's), not parseJson's JsonNumber
    const expected = ["-0.00", "-0.00", "-0", "-0", "-0", "-0"];
    for (const amount of amounts) {
      expect(wire.map((x) => c.decodeWire(amount, x).output)).toEqual(expected);
      expect(wire.map((x) => v.parse(amount.decode, x))).toEqual(expected);
    }
    // The sign of a non-zero amount and an unsigned zero stay as they were.
    expect(v.parse(string.decode, parseJson("0.00"))).toBe("0.00");
    expect(v.parse(string.decode, parseJson("-1.5e1"))).toBe("-15");
  });

  it("writes a negative zero with its sign", () => {
    expect(c.encodeWire(string, "-0.00").output).toBe("-0.00");
    expect(v.parse(string.encode, "-0.00")).toBe("-0.00");
    expect(c.encodeText(string, "-0.00")).toEqual({ success: true, text: '"-0.00"' });
    expect(stringifyJson(c.encodeWire(number, "-0.00").output)).toBe("-0.00");
    expect(v.parse(number.encode, "-0")).toEqual(new JsonNumber("-0"));
    expect(c.encodeText(number, "-0.00")).toEqual({ success: true, text: "-0.00" });
  });
});
