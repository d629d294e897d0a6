// The canonical wire text that raw stores and raw_hash digests.
import { cardOperateRecord, cardTransactionEventData } from "@merchantkit/contract";
import { jsonNumber, parseJson } from "@merchantkit/core";
import { describe, expect, it } from "vitest";
import { canonicalWireText, wireHash, wirePlan } from "./canonical-wire";

const txnPlan = wirePlan(cardTransactionEventData.wire);
const opPlan = wirePlan(cardOperateRecord.wire);

describe("canonicalWireText", () => {
  it("writes ids and amounts as bare numbers with their digits, keys sorted", () => {
    const text = canonicalWireText(
      { txnStatus: "S", txnOrderNo: "T1", cardId: "1953712585351499776", cardAmount: "0.10" },
      txnPlan,
    );
    expect(text).toBe(
      '{"cardAmount":0.10,"cardId":1953712585351499776,"txnOrderNo":"T1","txnStatus":"S"}',
    );
  });

  it("keeps a masked card number a string and fields the contract does not know", () => {
    const text = canonicalWireText(
      { cardId: "411111******1111", zNew: jsonNumber("1e5"), aNew: { b: 1, a: "x" } },
      txnPlan,
    );
    expect(text).toBe('{"aNew":{"a":"x","b":1},"cardId":"411111******1111","zNew":1e5}');
  });

  it("writes nested fee lists by the contract too, and leaves absent fields out", () => {
    const text = canonicalWireText(
      {
        operateRecordId: "1953712585351499776",
        remark: undefined,
        feeList: [{ feeType: "DEPOSIT", feeAmount: "1.50", feeCurrency: "USD" }],
      },
      opPlan,
    );
    expect(text).toBe(
      '{"feeList":[{"feeAmount":1.50,"feeCurrency":"USD","feeType":"DEPOSIT"}],"operateRecordId":1953712585351499776}',
    );
  });

  it("is reproduced from its own lossless parse, so the hash can be checked from raw", () => {
    const text = canonicalWireText(
      { merchantName: 'CAFE "LE"\n\u00e9', cardAmount: "12345678901234567.89", authTime: 1 },
      txnPlan,
    );
    expect(canonicalWireText(parseJson(text))).toBe(text);
    expect(wireHash(text)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("refuses numbers JSON cannot hold", () => {
    expect(() => canonicalWireText({ authTime: Number.NaN }, txnPlan)).toThrow(TypeError);
  });
});
