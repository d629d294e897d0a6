import { describe, expect, it } from "vitest";
import { exchangeRate, quoteRemittance } from "./payout-pricing";

describe("exchange rates", () => {
  it("are 8-decimal cross rates through USD, rounded half-up", () => {
    expect(exchangeRate("USD", "PHP")).toBe("56.41237800");
    expect(exchangeRate("SGD", "PHP")).toBe("41.91987926");
    expect(exchangeRate("HKD", "USD")).toBe("0.12800252");
    expect(exchangeRate("USD", "USD")).toBe("1.00000000");
    expect(exchangeRate("USD", "XXX")).toBeUndefined();
  });
});

describe("quoteRemittance", () => {
  const wallet = { paymentMethod: "E_WALLET", targetCurrency: "PHP" } as const;

  it("chargeFlag N: the fee comes out of sourceAmount, the target rounds down", () => {
    expect(
      quoteRemittance({
        ...wallet,
        chargeFlag: "N",
        sourceAmount: "100.00",
        sourceCurrency: "USD",
      }),
    ).toEqual({
      sourceAmount: "100.00",
      principal: "99.00",
      fee: "1.00",
      targetAmount: "5584.82",
      exchangeRate: "56.41237800",
    });
    // 0.50 USD fixed at 1.34571900 = 0.672859… → 0.67; 0.5 % of 100.00 = 0.50.
    expect(
      quoteRemittance({ ...wallet, chargeFlag: "N", sourceAmount: "100", sourceCurrency: "SGD" }),
    ).toEqual({
      sourceAmount: "100.00",
      principal: "98.83",
      fee: "1.17",
      targetAmount: "4142.94",
      exchangeRate: "41.91987926",
    });
  });

  it("chargeFlag Y: the beneficiary gets targetAmount in full, the principal rounds up, the fee adds on", () => {
    expect(
      quoteRemittance({
        ...wallet,
        chargeFlag: "Y",
        targetAmount: "5000.00",
        sourceCurrency: "USD",
      }),
    ).toEqual({
      sourceAmount: "89.58",
      principal: "88.64",
      fee: "0.94",
      targetAmount: "5000.00",
      exchangeRate: "56.41237800",
    });
    expect(
      quoteRemittance({ ...wallet, chargeFlag: "Y", targetAmount: "5000", sourceCurrency: "SGD" }),
    ).toMatchObject({ sourceAmount: "120.55", principal: "119.28", fee: "1.27" });
  });

  it("prices SWIFT by feeBearing and LOCAL with its percentage", () => {
    const swift = {
      chargeFlag: "Y",
      targetAmount: "100.00",
      sourceCurrency: "USD",
      targetCurrency: "USD",
      paymentMethod: "SWIFT",
    } as const;
    expect(quoteRemittance({ ...swift, feeBearing: "SHA" })).toMatchObject({
      fee: "15.00",
      sourceAmount: "115.00",
    });
    expect(quoteRemittance({ ...swift, feeBearing: "OUR" })).toMatchObject({
      fee: "25.00",
      sourceAmount: "125.00",
    });
    expect(
      quoteRemittance({
        chargeFlag: "N",
        sourceAmount: "250.00",
        sourceCurrency: "USD",
        targetCurrency: "USD",
        paymentMethod: "LOCAL",
      }),
    ).toMatchObject({ fee: "1.25", principal: "248.75", targetAmount: "248.75" });
  });

  it("reports amounts that cannot work and currencies it does not trade", () => {
    expect(
      quoteRemittance({ ...wallet, chargeFlag: "N", sourceAmount: "0.50", sourceCurrency: "USD" }),
    ).toEqual({ problem: "sourceAmount 0.50 does not cover the fee 0.50 USD" });
    expect(
      quoteRemittance({
        ...wallet,
        chargeFlag: "N",
        sourceAmount: "100.00",
        sourceCurrency: "JPY",
      }),
    ).toEqual({ problem: "sourceCurrency JPY cannot fund a payout in PHP" });
  });
});
