import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { acctQueryPaymentMethods } from "./acct-query-payment-methods";

describe("payout acct/queryPaymentMethods", () => {
  it("sends destination country, account currency and entity type", () => {
    const params = {
      merchantNo: "1",
      destinationCountry: "PH",
      accountCurrency: "PHP",
      entityType: "0",
    };
    expect(v.safeParse(acctQueryPaymentMethods.request, params).success).toBe(true);
    const { accountCurrency: _, ...missing } = params;
    expect(v.safeParse(acctQueryPaymentMethods.request, missing).success).toBe(false);
  });

  it("reads { paymentMethods } and, leniently, a bare list", () => {
    expect(v.parse(acctQueryPaymentMethods.response, { paymentMethods: ["LOCAL", "NEW"] })).toEqual(
      {
        paymentMethods: ["LOCAL", "NEW"],
      },
    );
    expect(v.parse(acctQueryPaymentMethods.response, ["SWIFT"])).toEqual({
      paymentMethods: ["SWIFT"],
    });
    expect(v.safeParse(acctQueryPaymentMethods.response, { paymentMethods: "LOCAL" }).success).toBe(
      false,
    );
  });
});
