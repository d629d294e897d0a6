// maskRecordCardData on its own: the same result as the webhook receiver's maskCardData (the
// pre-check skips only records that function would leave as they are), ids kept.
import { parseJson } from "@merchantkit/core";
import { describe, expect, it } from "vitest";
import { maskCardData } from "../webhook-receiver/mask-card-data";
import { ACCOUNT_TRANSACTION_IDS, fewestDigitsMasked, maskRecordCardData } from "./mask-record";
import { accountTxn, cardTxn, operateRecord } from "./test-records";

// Free texts around the pre-check's bounds: card numbers in every grouping the masker knows,
// digits that are none, runs one digit short of being looked at.
const TEXTS = [
  "SHOP pan 5555555555554444",
  "4111 1111 1111 1111 12/28",
  "4111-1111-1111-1111",
  "4111.1111.1111.1111",
  "4111_1111_1111_1111",
  "4111\u00a01111\u00a01111\u00a01111",
  "4111111111111113",
  "12345678901",
  "123456789012",
  "1234567890123",
  "ref 378282246310005 ok",
  "amount 12345678901234.56",
  "Approved",
  "",
];

const KEYS = ["merchantName", "remark", "pan", "cardNumber", "note", "cardId", "txnOrderNo"];

describe("maskRecordCardData", () => {
  it("gives maskCardData's own result for every record, nested and unknown fields too", () => {
    for (const text of TEXTS)
      for (const key of KEYS) {
        const records: Record<string, unknown>[] = [
          { ...cardTxn(), [key]: text },
          { ...cardTxn(), extra: { [key]: text, list: [text, { [key]: text }] } },
          { ...operateRecord(), detail: [{ [key]: text }] },
          { ...cardTxn(), extra: parseJson(`{"n":${text.replace(/\D/g, "") || 0}}`) },
        ];
        for (const record of records)
          expect(maskRecordCardData(record), `${key}: ${text}`).toEqual(maskCardData(record, true));
      }
  });

  it("drops a 3DS value wherever it sits, even with no digits", () => {
    const record = { ...cardTxn(), extra: [{ card3dsValues: "abc" }] };
    expect(maskRecordCardData(record)).toEqual({ ...cardTxn(record), extra: [{}] });
  });

  it("returns a record with nothing to mask as it is, ids and amounts included", () => {
    const record = cardTxn({ cardId: "1953712585351499999", transactionAmount: "1764057600009" });
    expect(maskRecordCardData(record)).toBe(record);
  });

  it("keeps an account transaction's ids when they pass the card-number check", () => {
    const record = accountTxn({
      acntTxnId: "1953712585351499999",
      serviceId: "4111111111111111",
      externalOrderId: "5555555555554444",
      remark: "pan 4242424242424242",
    });
    expect(maskRecordCardData(record, ACCOUNT_TRANSACTION_IDS)).toEqual({
      ...record,
      remark: "pan 424242******4242",
    });
  });

  it("looks at no text with fewer digits than the masker ever touches", () => {
    expect(fewestDigitsMasked()).toBeLessThanOrEqual(13);
    const short = "1".repeat(fewestDigitsMasked() - 1);
    expect(maskCardData({ pan: short, remark: short }, true)).toEqual({
      pan: short,
      remark: short,
    });
  });
});
