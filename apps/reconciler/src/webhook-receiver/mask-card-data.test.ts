// maskCardData on its own: a card number is masked wherever it sits in a field, also beside
// other digits; digits that are not a card number, times and amounts stay as they are.
import { describe, expect, it } from "vitest";
import { maskCardData } from "./mask-card-data";

const remarkOf = (remark: string) =>
  (maskCardData({ data: { remark } }, false) as { data: { remark: string } }).data.remark;

describe("maskCardData", () => {
  it.each([
    "card 4111111111111111 1228",
    "4111 1111 1111 1111 12/28",
    "pan 4111111111111111 123",
    "ref 12 4111111111111111",
    "4111111111111111 99 5555555555554444",
  ])("masks a card number beside other digits: %j", (remark) => {
    const masked = remarkOf(remark);
    for (const pan of ["4111111111111111", "5555555555554444"])
      expect(masked.replace(/[ -]/g, "")).not.toContain(pan);
    // Only the digits change: the words and the text after the run stay.
    expect(masked.replace(/[\d* -]/g, "")).toBe(remark.replace(/[\d -]/g, ""));
  });

  it.each([
    ["Paid with 4242-4242-4242-4242 ok", "Paid with 424242******4242 ok"],
    ["4111 1111 1111 1111 1 of 2", "411111******1111 1 of 2"],
    ["ref 1 4111111111111111", "ref 1 411111******1111"],
  ])("masks only the card number's digits where nothing else passes: %j", (remark, masked) => {
    expect(remarkOf(remark)).toBe(masked);
  });

  it("leaves digits that are no card number as they are", () => {
    // No 13–19-digit stretch of these passes the Luhn check; 12 digits are too few.
    for (const remark of ["4111111111111113", "ref 1111 1111 1111 1111", "id 1234 5678 9012"])
      expect(remarkOf(remark)).toBe(remark);
  });

  it("masks every digit run of a field named as a card number, Luhn or not", () => {
    const out = maskCardData({ data: { pan: "4111111111111113 12" } }, false);
    expect(out.data.pan).toBe("411111********1312");
  });

  it("keeps times and amounts whose digits pass the card-number check", () => {
    // 1764057600009 passes the Luhn check (see webhook-receiver.test.ts for the whole push).
    const data = { transactionTime: 1764057600009, transactionAmount: "1764057600009" };
    expect(maskCardData({ data }, false).data).toEqual(data);
  });
});
