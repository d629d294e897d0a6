import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareDecimal, decimalEquals } from "./compare-decimal";
import { addDecimal, negateDecimal, subtractDecimal, sumDecimals } from "./decimal-arithmetic";

// Decimal strings built digit by digit, independent of the code under test.
const decimal = fc
  .tuple(
    fc.boolean(),
    fc.bigInt({ min: 0n, max: 10n ** 25n }),
    fc.option(fc.stringMatching(/^\d{1,12}$/), { nil: undefined }),
  )
  .map(
    ([negative, int, fraction]) => `${negative ? "-" : ""}${int}${fraction ? `.${fraction}` : ""}`,
  );

// The value as units at a fixed scale of 12, for comparing against BigInt.
function units12(value: string): bigint {
  const negative = value.startsWith("-");
  const [int = "", fraction = ""] = value.replace("-", "").split(".");
  const units = BigInt(int + fraction.padEnd(12, "0"));
  return negative ? -units : units;
}

describe("decimal arithmetic", () => {
  it("adds exactly where floating point does not", () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(addDecimal("0.1", "0.2")).toBe("0.3");
    expect(addDecimal("1.50", "2.1")).toBe("3.60");
    expect(addDecimal("-1.50", "1.5")).toBe("0.00");
    expect(addDecimal("9007199254740993", "1")).toBe("9007199254740994");
    expect(subtractDecimal("100.10", "0.1")).toBe("100.00");
    expect(subtractDecimal("1", "2.5")).toBe("-1.5");
    expect(subtractDecimal("0.05", "0.1")).toBe("-0.05");
  });

  it("negates without producing -0", () => {
    expect(negateDecimal("1.50")).toBe("-1.50");
    expect(negateDecimal("-1.50")).toBe("1.50");
    expect(negateDecimal("0.00")).toBe("0.00");
    expect(negateDecimal("-0")).toBe("0");
  });

  it("sums a list at its largest scale", () => {
    expect(sumDecimals([])).toBe("0");
    expect(sumDecimals(["0.1", "0.2", "0.3"])).toBe("0.6");
    expect(sumDecimals(["100", "0.10", "-50.5"])).toBe("49.60");
    expect(sumDecimals(Array.from({ length: 10 }, () => "0.1"))).toBe("1.0");
  });

  it("compares by value", () => {
    expect(compareDecimal("1.50", "1.5")).toBe(0);
    expect(compareDecimal("-0", "0.00")).toBe(0);
    expect(compareDecimal("2", "10")).toBe(-1);
    expect(compareDecimal("-2", "-10")).toBe(1);
    expect(compareDecimal("0.10", "0.09")).toBe(1);
    expect(decimalEquals("1.50", "1.5")).toBe(true);
    expect(decimalEquals("1.51", "1.5")).toBe(false);
  });

  it("throws a TypeError for anything but a decimal string", () => {
    expect(() => addDecimal("1e5", "1")).toThrow(TypeError);
    expect(() => addDecimal(0.1 as unknown as string, "1")).toThrow(TypeError);
    expect(() => compareDecimal("1", "")).toThrow(TypeError);
    expect(() => sumDecimals(["1", "x"])).toThrow(TypeError);
  });

  it("add then subtract gives back an equal value", () => {
    fc.assert(
      fc.property(decimal, decimal, (a, b) => {
        expect(decimalEquals(subtractDecimal(addDecimal(a, b), b), a)).toBe(true);
      }),
    );
  });

  it("add agrees with BigInt arithmetic on scaled values", () => {
    fc.assert(
      fc.property(decimal, decimal, (a, b) => {
        expect(units12(addDecimal(a, b))).toBe(units12(a) + units12(b));
        expect(units12(subtractDecimal(a, b))).toBe(units12(a) - units12(b));
        expect(units12(negateDecimal(a))).toBe(-units12(a));
      }),
    );
  });

  it("keeps the larger scale of the inputs", () => {
    fc.assert(
      fc.property(decimal, decimal, (a, b) => {
        const scale = (s: string) => (s.includes(".") ? s.length - s.indexOf(".") - 1 : 0);
        expect(scale(addDecimal(a, b))).toBe(Math.max(scale(a), scale(b)));
      }),
    );
  });

  it("compare is antisymmetric and agrees with BigInt comparison of scaled values", () => {
    fc.assert(
      fc.property(decimal, decimal, (a, b) => {
        expect(compareDecimal(a, b)).toBe(-compareDecimal(b, a) || 0);
        const x = units12(a);
        const y = units12(b);
        expect(compareDecimal(a, b)).toBe(x < y ? -1 : x > y ? 1 : 0);
      }),
    );
  });

  it("sum equals repeated addition", () => {
    fc.assert(
      fc.property(fc.array(decimal, { maxLength: 8 }), (list) => {
        expect(sumDecimals(list)).toBe(list.reduce((total, x) => addDecimal(total, x), "0"));
      }),
    );
  });
});
