import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkDecimal } from "./check-decimal";
import { toScaled } from "./scaled-decimal";

describe("checkDecimal", () => {
  it("accepts valid amounts", () => {
    expect(checkDecimal("100.50", { maxScale: 2, sign: "positive" })).toBeUndefined();
    expect(checkDecimal("0", { sign: "nonNegative" })).toBeUndefined();
    expect(checkDecimal("-3.999")).toBeUndefined();
    expect(checkDecimal("100", { maxScale: 0 })).toBeUndefined();
  });

  it("names the rule that failed", () => {
    expect(checkDecimal("0", { sign: "positive" })).toBe("must be greater than 0");
    expect(checkDecimal("0.00", { sign: "positive" })).toBe("must be greater than 0");
    expect(checkDecimal("-1", { sign: "positive" })).toBe("must be greater than 0");
    expect(checkDecimal("-0.01", { sign: "nonNegative" })).toBe("must be 0 or greater");
    expect(checkDecimal("1.001", { maxScale: 2 })).toBe("must have at most 2 decimal places");
    expect(checkDecimal("1.01", { maxScale: 1 })).toBe("must have at most 1 decimal place");
    expect(checkDecimal("1.0", { maxScale: 0 })).toBe("must be a whole number (no decimal places)");
    expect(checkDecimal("1e5")).toBe('must be a decimal string such as "100.50"');
    expect(checkDecimal("")).toBe('must be a decimal string such as "100.50"');
    expect(checkDecimal(null)).toBe('must be a decimal string such as "100.50"');
  });

  it("tells a caller who passes a JS number to pass a string", () => {
    expect(checkDecimal(0.1, { maxScale: 2 })).toMatch(
      /^must be a decimal string such as "100.50", not a number/,
    );
    expect(checkDecimal(0.1)).toContain("pass amounts as strings");
  });

  it("checks the scale before the sign", () => {
    expect(checkDecimal("-0.001", { maxScale: 2, sign: "positive" })).toBe(
      "must have at most 2 decimal places",
    );
  });

  it("reads the sign like the exact units do, -0 and -0.00 included", () => {
    // The rule is read off the text; BigInt units are the reference.
    const decimal = fc
      .tuple(
        fc.boolean(),
        fc.oneof(fc.constant("0"), fc.stringMatching(/^[1-9]\d{0,12}$/)),
        fc.option(fc.stringMatching(/^\d{1,4}$/), { nil: undefined }),
      )
      .map(([neg, int, fraction]) => `${neg ? "-" : ""}${int}${fraction ? `.${fraction}` : ""}`);
    fc.assert(
      fc.property(decimal, (text) => {
        const { units } = toScaled(text);
        expect(checkDecimal(text, { sign: "positive" }) === undefined).toBe(units > 0n);
        expect(checkDecimal(text, { sign: "nonNegative" }) === undefined).toBe(units >= 0n);
      }),
    );
  });
});
