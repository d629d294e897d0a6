import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { divideRounded, fromMinorUnits, toMinorUnits } from "./minor-units";

describe("minor units", () => {
  it("converts exactly and refuses to drop digits", () => {
    expect(toMinorUnits("12.3", 2)).toBe(1230n);
    expect(toMinorUnits("-0.05", 2)).toBe(-5n);
    expect(toMinorUnits("7.500", 2)).toBe(750n);
    expect(() => toMinorUnits("1.001", 2)).toThrow(RangeError);
    expect(fromMinorUnits(1230n, 2)).toBe("12.30");
    expect(fromMinorUnits(-5n, 2)).toBe("-0.05");
    expect(fromMinorUnits(0n, 0)).toBe("0");
  });

  it("divides with the named rounding, for either sign", () => {
    expect(divideRounded(5n, 2n, "halfUp")).toBe(3n);
    expect(divideRounded(-5n, 2n, "halfUp")).toBe(-3n);
    expect(divideRounded(5n, 2n, "halfEven")).toBe(2n);
    expect(divideRounded(7n, 2n, "halfEven")).toBe(4n);
    expect(divideRounded(7n, -2n, "down")).toBe(-3n);
    expect(divideRounded(1n, 3n, "up")).toBe(1n);
    expect(() => divideRounded(1n, 0n, "up")).toThrow(RangeError);
  });

  it("round-trips any amount, and rounds halfUp to the nearest quotient (properties)", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }),
        fc.integer({ min: 0, max: 4 }),
        (units, scale) => {
          expect(toMinorUnits(fromMinorUnits(units, scale), scale)).toBe(units);
        },
      ),
    );
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
        fc.bigInt({ min: 1n, max: 10n ** 6n }),
        (n, d) => {
          const r = n - divideRounded(n, d, "halfUp") * d;
          expect((r < 0n ? -r : r) * 2n <= d).toBe(true);
        },
      ),
    );
  });
});
