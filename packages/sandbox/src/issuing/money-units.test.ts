import { describe, expect, it } from "vitest";
import { convertMinor } from "./fx-rates";
import type { Card } from "./issuing-records";
import { ACCEPTORS } from "./merchants";
import { applyRate, parseRate } from "./money-units";
import { defaultProducts, productTerms } from "./products";
import { clearingFees } from "./txn-fees";

describe("exact money in minor units", () => {
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
