import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { convertMinor } from "./fx-rates";
import type { Card } from "./issuing-records";
import { ACCEPTORS } from "./merchants";
import { applyRate, divRound, fromUnits, parseRate, toUnits } from "./money-units";
import { defaultProducts, productTerms } from "./products";
import { clearingFees } from "./txn-fees";

describe("exact money in minor units", () => {
  it("reads and writes decimal strings at a currency's scale", () => {
    expect(toUnits("12.3", 2)).toBe(1230n);
    expect(toUnits("12.30", 2)).toBe(1230n);
    expect(toUnits("1500", 0)).toBe(1500n);
    expect(toUnits("1.500", 2)).toBe(150n);
    expect(() => toUnits("1.001", 2)).toThrow(RangeError);
    expect(() => toUnits("1e5", 2)).toThrow(TypeError);
    expect(fromUnits(1230n, 2)).toBe("12.30");
    expect(fromUnits(5n, 2)).toBe("0.05");
    expect(fromUnits(-5n, 2)).toBe("-0.05");
    expect(fromUnits(0n, 2)).toBe("0.00");
    expect(fromUnits(1500n, 0)).toBe("1500");
    expect(fromUnits(9_007_199_254_740_993n, 2)).toBe("90071992547409.93");
  });

  it("round-trips any amount", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }),
        fc.integer({ min: 0, max: 4 }),
        (units, scale) => {
          expect(toUnits(fromUnits(units, scale), scale)).toBe(units);
        },
      ),
    );
  });

  it("rounds half away from zero, once", () => {
    expect(divRound(5n, 10n)).toBe(1n);
    expect(divRound(4n, 10n)).toBe(0n);
    expect(divRound(-5n, 10n)).toBe(-1n);
    expect(divRound(-14n, 10n)).toBe(-1n);
    expect(divRound(15n, 10n)).toBe(2n);
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
        fc.bigInt({ min: 1n, max: 10n ** 6n }),
        (n, d) => {
          const q = divRound(n, d);
          // |n − q·d| ≤ d/2: the nearest quotient.
          const r = n - q * d;
          expect((r < 0n ? -r : r) * 2n <= d).toBe(true);
        },
      ),
    );
  });

  it("applies percentage rates exactly where floating point would not", () => {
    // 1.005 × 100 = 100.49999999999999 in floating point: a half cent rounded the wrong way.
    expect(Math.round(1.005 * 100)).toBe(100);
    expect(applyRate(100_500n, parseRate("0.01"))).toBe(1005n);
    expect(applyRate(1_005n, parseRate("0.5"))).toBe(503n); // 502.5 → 503
    expect(applyRate(15_000n, parseRate("0.015"))).toBe(225n);
    expect(applyRate(5_000n, parseRate("0.015"))).toBe(75n);
    expect(applyRate(9_950n, parseRate("0.015"))).toBe(149n); // 149.25
    expect(applyRate(9_970n, parseRate("0.015"))).toBe(150n); // 149.55
  });

  it("converts through USD values with one rounding", () => {
    expect(convertMinor(10_000n, "EUR", "USD")).toBe(10_850n);
    expect(convertMinor(1500n, "JPY", "USD")).toBe(1005n);
    expect(convertMinor(10_850n, "USD", "EUR")).toBe(10_000n);
    expect(convertMinor(100n, "HKD", "SGD")).toBe(17n); // 1.00 × 0.128 / 0.74 = 0.173
    expect(convertMinor(777n, "SGD", "SGD")).toBe(777n);
    expect(() => convertMinor(1n, "XXX", "USD")).toThrow(RangeError);
  });

  it("charges clearing fees by currency, country and MCC", () => {
    const card: Card = {
      cardId: "1",
      cardholderId: "2",
      merchantNo: "M",
      terms: productTerms(defaultProducts[0] as (typeof defaultProducts)[number]),
      currency: "USD",
      status: "ACTIVE",
      available: 0n,
      createdAt: 0,
    };
    const at = (name: string) =>
      ACCEPTORS.find((a) => a.merchantName === name) as (typeof ACCEPTORS)[number];
    expect(clearingFees(card, at("WALMART SUPERCENTER"), "USD", 10_000n).totalUnits).toBe(0n);
    const foreign = clearingFees(card, at("TESCO STORES 2201"), "GBP", 12_700n);
    expect(foreign).toMatchObject({
      exchangeFee: "2.54",
      crossBorderFee: "1.02",
      transactionFee: undefined,
    });
    expect(foreign.totalUnits).toBe(356n);
    // Abroad but charged in the card's currency: cross-border only.
    expect(clearingFees(card, at("META *ADS"), "USD", 1_000n)).toMatchObject({
      crossBorderFee: "0.08",
      exchangeFee: undefined,
    });
    expect(clearingFees(card, at("ATM CHASE 0042"), "USD", 4_000n).transactionFee).toBe("2.00");
  });
});
