import { describe, expect, it } from "vitest";
import { assertDecimal, DECIMAL_PATTERN, decimalScale, isDecimalString } from "./decimal-string";

describe("DecimalString", () => {
  it.each(["0", "-0", "100", "100.50", "-3.2", "0.001", "1953712585351499776.123456789"])(
    "accepts %s",
    (value) => {
      expect(isDecimalString(value)).toBe(true);
      expect(DECIMAL_PATTERN.test(value)).toBe(true);
    },
  );

  it.each([
    "",
    "+1",
    ".5",
    "1.",
    "1e5",
    "01",
    "00.5",
    " 1",
    "1 ",
    "1,000",
    "NaN",
    "0x1",
    "--1",
    "1.2.3",
  ])("rejects %j", (value) => {
    expect(isDecimalString(value)).toBe(false);
  });

  it("rejects non-strings", () => {
    expect(isDecimalString(1)).toBe(false);
    expect(isDecimalString(1n)).toBe(false);
    expect(isDecimalString(null)).toBe(false);
    expect(() => assertDecimal(0.1)).toThrow(
      'expected a decimal string such as "100.50", got a number',
    );
  });

  it("gives the scale", () => {
    expect(decimalScale("100")).toBe(0);
    expect(decimalScale("100.50")).toBe(2);
    expect(decimalScale("-0.001")).toBe(3);
    expect(() => decimalScale("1e5")).toThrow(TypeError);
  });
});
