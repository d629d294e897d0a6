import { describe, expect, it } from "vitest";
import { decimalFromNumberText } from "./decimal-from-number-text";

describe("decimalFromNumberText", () => {
  it.each([
    ["100.10", "100.10"],
    ["100", "100"],
    ["-0", "0"],
    ["1e5", "100000"],
    ["1E+5", "100000"],
    ["1.5e-7", "0.00000015"],
    ["1.50E-3", "0.00150"],
    ["1.0E2", "100"],
    ["-12.5e1", "-125"],
    ["1e+21", "1000000000000000000000"],
    ["12345678901234567.89", "12345678901234567.89"],
  ])("%s → %s", (text, expected) => {
    expect(decimalFromNumberText(text)).toBe(expected);
  });

  it.each(["", "abc", "01", "1.", "+1", "1e401", "1e-401", "1e99999999999999999999"])(
    "gives undefined for %j",
    (text) => {
      expect(decimalFromNumberText(text)).toBeUndefined();
    },
  );
});
