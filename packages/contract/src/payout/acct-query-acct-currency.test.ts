import { parseJson, stringifyJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { acctQueryAcctCurrency } from "./acct-query-acct-currency";

describe("payout acct/queryAcctCurrency", () => {
  it("asks for all currencies or one", () => {
    expect(v.safeParse(acctQueryAcctCurrency.request, { merchantNo: "1" }).success).toBe(true);
    expect(
      v.safeParse(acctQueryAcctCurrency.request, { merchantNo: "1", currency: "USD" }).success,
    ).toBe(true);
    expect(
      v.safeParse(acctQueryAcctCurrency.request, { merchantNo: "1", currency: "US" }).success,
    ).toBe(false);
  });

  it("keeps every digit of the balances", () => {
    const data = v.parse(
      acctQueryAcctCurrency.response,
      parseJson(
        '[{"currency":"USD","availableBalance":"1000.10","frozenBalance":"0.00","totalBalance":"1000.10"},{"currency":"PHP","availableBalance":12345678901234567.89}]',
      ),
    );
    expect(data[0]?.availableBalance).toBe("1000.10");
    expect(data[1]?.availableBalance).toBe("12345678901234567.89");
    const wire = v.parse(acctQueryAcctCurrency.responseCodec.encode, [
      { currency: "USD", availableBalance: "0.10" },
    ]);
    expect(stringifyJson(wire)).toBe('[{"currency":"USD","availableBalance":"0.10"}]');
  });
});
