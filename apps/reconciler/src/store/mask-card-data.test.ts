// maskCardData on its own: a card number is masked wherever it sits in a field, also beside
// other digits; digits that are not a card number, times and amounts stay as they are.

import { jsonNumber } from "@merchantkit/core";
import { describe, expect, it } from "vitest";
import { accountTxn, cardTxn } from "../testing/records";
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

  it.each([
    "IBAN DE89 3704 0044 0532 0130 00",
    "call +49 30 1234567 100",
    "ref 1234567890123456",
    "1000000000000000",
  ])("changes only digits written as a card number that pass the Luhn check: %j", (remark) => {
    // Each holds a 13–19-digit stretch that passes the check inside other digits or groups.
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

  // How people and systems write a card number besides plain, single-spaced or dashed digits:
  // other separators, and runs of spaces, no-break or thin ones among them.
  const WRITTEN = [
    ["dots", "4111.1111.1111.1111", "411111******1111"],
    ["slashes", "4111/1111/1111/1111", "411111******1111"],
    ["underscores", "4111_1111_1111_1111", "411111******1111"],
    ["no-break spaces", "4111\u00a01111\u00a01111\u00a01111", "411111******1111"],
    ["narrow no-break spaces", "4111\u202f1111\u202f1111\u202f1111", "411111******1111"],
    ["figure spaces", "4111\u20071111\u20071111\u20071111", "411111******1111"],
    ["thin spaces", "4111\u20091111\u20091111\u20091111", "411111******1111"],
    ["several spaces", "4111  1111  1111  1111", "411111******1111"],
    ["spaced dashes", "4111 - 1111 - 1111 - 1111", "411111******1111"],
    ["en dashes", "4111\u20131111\u20131111\u20131111", "411111******1111"],
    ["19 digits, dots", "4111.1111.1111.1111.102", "411111*********1102"],
    ["Amex, dots (4-6-5)", "3782.822463.10005", "378282*****0005"],
    ["Amex, no-break spaces", "3782\u00a0822463\u00a010005", "378282*****0005"],
    ["Diners, slashes (4-6-4)", "3056/930902/5904", "305693****5904"],
  ] as const;

  it.each(WRITTEN)(
    "masks a card number written with %s in an unknown nested field",
    (_, pan, masked) => {
      const out = maskCardData({ data: { extraInfo: { note: pan, list: [pan] } } }, false);
      expect(out.data.extraInfo).toEqual({ note: masked, list: [masked] });
    },
  );

  it.each(WRITTEN)(
    "masks a card number written with %s in free text, and nothing else",
    (_, pan, masked) => {
      const rest =
        "on 2026/11/26 at 2026-11-26T23:14:57.123Z: 12.30 of 1234567890123456.785, v1.2.3, +1 555 123 4567";
      const out = maskCardData(
        { data: { merchantName: `paid ${pan} ${rest}`, remark: `${pan}.` } },
        false,
      );
      expect(out.data).toEqual({ merchantName: `paid ${masked} ${rest}`, remark: `${masked}.` });
    },
  );

  it("keeps a decimal amount in text, unless its digits could be a card number", () => {
    // A window of 1234567890123456 passes the Luhn check, the whole does not: with a fraction it
    // is an amount. 1234567890123452 passes as a whole: a card number typed into an amount is
    // masked (one long amount in ten is too). A JSON number is an amount whatever its digits.
    const data = {
      remark: "total 1234567890123452.785 and 1234567890123456.785",
      extraInfo: { amount: jsonNumber("1234567890123452.785"), text: "0.4111111111111111" },
    };
    expect(maskCardData({ data }, false).data).toEqual({
      remark: "total 123456******3452.785 and 1234567890123456.785",
      extraInfo: { amount: jsonNumber("1234567890123452.785"), text: "0.411111******1111" },
    });
  });

  it("leaves dots and slashes alone that do not group digits the way card numbers are", () => {
    for (const remark of [
      "2026/11/26 2026.11.26 1.2.3 10.0.0.1 192.168.100.200",
      "4111.1111.1111", // 12 digits
      "4111.11111.111.1111", // Luhn-valid digits, but not a card's grouping
      "4111.1111/1111.1111", // two separators
      "1111.1111.1111.1111", // no Luhn
      "v1.4111.1111.1111.1111 and 4111.1111.1111.1111.1", // inside a longer dotted run
    ])
      expect(remarkOf(remark)).toBe(remark);
  });

  it("keeps the service's 64-bit ids where the contract names them, whatever else changed", () => {
    const data = { cardId: "1953712585351499776", operateRecordId: "1953712585351499999" };
    expect(maskCardData({ data }, false).data).toEqual(data);
  });

  // The sync masks every record it stores (commit-window.ts): almost none holds card data.
  it("hands a record with nothing to mask back as it is, ids, times and amounts included", () => {
    const record = cardTxn({ cardId: "1953712585351499999", transactionAmount: "1764057600009" });
    expect(maskCardData(record, true)).toBe(record);
    const nested = { ...cardTxn(), extra: { note: "Approved", list: ["12.30", { n: 1 }] } };
    expect(maskCardData(nested, true)).toBe(nested);
  });

  it("never modifies what it masks: a changed record is a new one", () => {
    const event = {
      data: {
        cardId: "4111111111111111",
        note: "pan 5555555555554444",
        extra: [{ card3dsValues: "abc" }],
      },
    };
    const before = structuredClone(event);
    const masked = maskCardData(event, false);
    expect(event).toEqual(before);
    expect(masked).toEqual({
      data: { cardId: "411111******1111", note: "pan 555555******4444", extra: [{}] },
    });
  });

  it("keeps an account transaction's ids when they pass the card-number check", () => {
    const record = accountTxn({
      acntTxnId: "1953712585351499999",
      serviceId: "4111111111111111",
      externalOrderId: "5555555555554444",
      remark: "pan 4242424242424242",
    });
    expect(maskCardData(record, true)).toEqual({ ...record, remark: "pan 424242******4242" });
  });
});
