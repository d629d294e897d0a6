import { describe, expect, it } from "vitest";
import { atScale, divideRounded, fromUnits, toUnits } from "./decimal-units";

describe("decimal units", () => {
  it("converts exactly, padding and refusing to drop digits", () => {
    expect(toUnits("100", 2)).toBe(10_000n);
    expect(toUnits("0.5", 2)).toBe(50n);
    expect(toUnits("-1.25", 2)).toBe(-125n);
    expect(toUnits("1.2300", 2)).toBe(123n);
    expect(() => toUnits("1.234", 2)).toThrow(RangeError);
    expect(() => toUnits("1e5", 2)).toThrow(TypeError);
    expect(fromUnits(5n, 2)).toBe("0.05");
    expect(fromUnits(-125n, 2)).toBe("-1.25");
    expect(fromUnits(100000000n, 8)).toBe("1.00000000");
    expect(fromUnits(7n, 0)).toBe("7");
    expect(atScale("100", 2)).toBe("100.00");
    expect(atScale("9007199254740993.1", 2)).toBe("9007199254740993.10");
  });

  it("rounds divisions as asked, both signs", () => {
    expect(divideRounded(7n, 2n, "down")).toBe(3n);
    expect(divideRounded(7n, 2n, "up")).toBe(4n);
    expect(divideRounded(7n, 2n, "halfUp")).toBe(4n);
    expect(divideRounded(5n, 3n, "halfUp")).toBe(2n);
    expect(divideRounded(4n, 3n, "halfUp")).toBe(1n);
    expect(divideRounded(4n, 3n, "up")).toBe(2n);
    expect(divideRounded(6n, 3n, "up")).toBe(2n);
    expect(divideRounded(-7n, 2n, "down")).toBe(-3n);
    expect(divideRounded(-7n, 2n, "up")).toBe(-4n);
    expect(divideRounded(7n, -2n, "halfUp")).toBe(-4n);
    expect(() => divideRounded(1n, 0n, "down")).toThrow(RangeError);
  });
});
