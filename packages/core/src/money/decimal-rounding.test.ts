import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { divideDecimal, multiplyDecimal, roundDecimal } from "./decimal-rounding";

describe("roundDecimal", () => {
  it("rounds by the named rule", () => {
    expect(roundDecimal("2.345", { scale: 2, rounding: "halfUp" })).toBe("2.35");
    expect(roundDecimal("2.345", { scale: 2, rounding: "halfEven" })).toBe("2.34");
    expect(roundDecimal("2.355", { scale: 2, rounding: "halfEven" })).toBe("2.36");
    expect(roundDecimal("-2.345", { scale: 2, rounding: "halfUp" })).toBe("-2.35");
    expect(roundDecimal("2.341", { scale: 2, rounding: "up" })).toBe("2.35");
    expect(roundDecimal("-2.349", { scale: 2, rounding: "down" })).toBe("-2.34");
    expect(roundDecimal("7", { scale: 2, rounding: "halfUp" })).toBe("7.00");
  });
});

describe("multiplyDecimal", () => {
  it("multiplies exactly and rounds once", () => {
    expect(multiplyDecimal("100.00", "0.015", { scale: 2, rounding: "halfUp" })).toBe("1.50");
    expect(multiplyDecimal("0.1", "0.2", { scale: 2, rounding: "halfUp" })).toBe("0.02");
    expect(multiplyDecimal("1000.10", "1.34567891", { scale: 2, rounding: "halfUp" })).toBe(
      "1345.81",
    );
    expect(multiplyDecimal("19.99", "3", { scale: 4, rounding: "down" })).toBe("59.9700");
    expect(multiplyDecimal("-10.005", "1", { scale: 2, rounding: "halfUp" })).toBe("-10.01");
  });

  it("agrees with BigInt arithmetic on cents and parts per million (property)", () => {
    const text = (units: bigint, scale: number) => {
      const abs = units < 0n ? -units : units;
      const digits = abs.toString().padStart(scale + 1, "0");
      return `${units < 0n ? "-" : ""}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
    };
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }),
        fc.bigInt({ min: 0n, max: 10n ** 7n }),
        (cents, ppm) => {
          const exact = cents * ppm; // the product at scale 2 + 6
          const truncated = exact / 10n ** 6n; // BigInt division truncates toward zero
          expect(
            multiplyDecimal(text(cents, 2), text(ppm, 6), { scale: 2, rounding: "down" }),
          ).toBe(text(truncated, 2));
          const halfUp = multiplyDecimal(text(cents, 2), text(ppm, 6), {
            scale: 2,
            rounding: "halfUp",
          });
          const rest = exact - truncated * 10n ** 6n;
          const bump = (rest < 0n ? -rest : rest) * 2n >= 10n ** 6n ? (exact < 0n ? -1n : 1n) : 0n;
          expect(halfUp).toBe(text(truncated + bump, 2));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("divideDecimal", () => {
  it("divides and rounds once", () => {
    expect(divideDecimal("100.00", "3", { scale: 2, rounding: "halfUp" })).toBe("33.33");
    expect(divideDecimal("2.00", "3", { scale: 2, rounding: "halfUp" })).toBe("0.67");
    expect(divideDecimal("1", "-8", { scale: 3, rounding: "halfUp" })).toBe("-0.125");
    expect(() => divideDecimal("1", "0.00", { scale: 2, rounding: "halfUp" })).toThrow(
      /division by zero/,
    );
  });
});
