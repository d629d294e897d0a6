import { describe, expect, it } from "vitest";
import { detailText, groupDigits, moneyText, ungroupDigits } from "./money-text";
import { tableLines } from "./text-table";

describe("amounts for finance", () => {
  it("groups thousands and keeps every digit, without a float", () => {
    expect(groupDigits("1234567.5")).toBe("1,234,567.50");
    expect(groupDigits("-1000")).toBe("-1,000.00");
    expect(groupDigits("999.999")).toBe("999.999");
    expect(groupDigits("90071992547409931.01")).toBe("90,071,992,547,409,931.01");
    expect(groupDigits("0")).toBe("0.00");
    expect(moneyText("840.55", "HKD")).toBe("840.55 HKD");
  });

  it("prints the amounts of a break's detail as the columns print them, and nothing else", () => {
    expect(
      detailText("authorization T000000000042828 has held 14861.56 HKD since 2026-11-14 18:50"),
    ).toBe("authorization T000000000042828 has held 14,861.56 HKD since 2026-11-14 18:50");
    expect(
      detailText("card transaction T1: provider -1021.28 USD, ledger -1022.28 EUR (entry L014385)"),
    ).toBe("card transaction T1: provider -1,021.28 USD, ledger -1,022.28 EUR (entry L014385)");
    expect(detailText("fee T2 CROSS_BORDER: provider -10.18 HKD")).toBe(
      "fee T2 CROSS_BORDER: provider -10.18 HKD",
    );
    // An id or a date before a word in capitals is no amount.
    expect(detailText("entry L1000 USD-side, T000000001000 EUR")).toBe(
      "entry L1000 USD-side, T000000001000 EUR",
    );
  });

  it("reads back what it prints, and nothing that could be read two ways", () => {
    for (const amount of ["1234567.5", "-1000", "999.999", "0", "-0.01"])
      expect(ungroupDigits(groupDigits(amount))).toBe(groupDigits(amount).replaceAll(",", ""));
    expect(ungroupDigits("1250.50")).toBe("1250.50");
    for (const text of [
      "1,25",
      "1.250,50",
      "1,250",
      "12,50.00",
      "1,2500.00",
      ",250.50",
      "1,,250.50",
    ])
      expect(ungroupDigits(text), text).toBeUndefined();
  });

  it("right-aligns the columns it is told to", () => {
    expect(
      tableLines(
        ["a", "amount"],
        [
          ["x", "1.00"],
          ["yy", "1,000.00"],
        ],
        new Set([1]),
      ),
    ).toEqual(["a     amount", "--  --------", "x       1.00", "yy  1,000.00"]);
  });
});
