// The break page's record panels: labels a person reads, each amount with its currency, no
// storage columns.
import { describe, expect, it } from "vitest";
import { columnLabel, labelledFields } from "./record-fields";

describe("labelledFields", () => {
  it("labels columns, joins each amount with its currency and leaves storage columns out", () => {
    const card: [string, string | null][] = [
      ["txn_order_no", "T-1"],
      ["transaction_amount", "-1250.5"],
      ["transaction_currency", "EUR"],
      ["settle_amount", "-1361.27"],
      ["settle_currency", "USD"],
      ["cross_border_fee", "3.10"],
      ["cross_border_fee_currency", "USD"],
      ["exchange_fee", null],
      ["exchange_fee_currency", null],
      ["raw_hash", "9f2c"],
      ["merchant_mcc_code", "5411"],
    ];
    expect(labelledFields(card)).toEqual([
      ["Transaction order number", "T-1"],
      ["Transaction amount", "-1,250.50 EUR"],
      ["Settle amount", "-1,361.27 USD"],
      ["Cross border fee", "3.10 USD"],
      ["Exchange fee", null],
      ["Merchant MCC code", "5411"],
    ]);
  });

  it("joins a plain amount with the row's currency", () => {
    expect(
      labelledFields([
        ["entry_id", "L-1"],
        ["amount", "-1250.50"],
        ["currency", "EUR"],
        ["acnt_txn_id", "A-9"],
      ]),
    ).toEqual([
      ["Entry ID", "L-1"],
      ["Amount", "-1,250.50 EUR"],
      ["Account transaction ID", "A-9"],
    ]);
    expect(columnLabel("origin_txn_order_no_for_refund")).toBe(
      "Origin transaction order number for refund",
    );
  });
});
