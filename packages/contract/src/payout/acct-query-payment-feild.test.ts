import { parseJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { acctQueryPaymentFeild } from "./acct-query-payment-feild";

const params = {
  merchantNo: "800209",
  payoutCurrency: "PHP",
  bankCountry: "PH",
  entityType: "1",
  paymentMethod: "E_WALLET",
  walletType: "GCASH",
} as const;

describe("payout acct/queryPaymentFeild", () => {
  it("sends the route, walletType optional", () => {
    expect(acctQueryPaymentFeild.name).toBe("payout.acct.queryPaymentFeild");
    expect(acctQueryPaymentFeild.kind).toBe("read");
    expect(v.safeParse(acctQueryPaymentFeild.request, params).success).toBe(true);
    const { walletType: _, ...bank } = params;
    expect(
      v.safeParse(acctQueryPaymentFeild.request, { ...bank, paymentMethod: "LOCAL" }).success,
    ).toBe(true);
    // entityType is open: a value the service adds later is sent, not refused.
    expect(v.safeParse(acctQueryPaymentFeild.request, { ...params, entityType: "9" }).success).toBe(
      true,
    );
    expect(v.safeParse(acctQueryPaymentFeild.request, { ...params, entityType: "" }).success).toBe(
      false,
    );
  });

  it("reads the templates as objects or as JSON text", () => {
    const data = v.parse(
      acctQueryPaymentFeild.response,
      parseJson(
        '{"merchantNo":"800209","receiverInfo":{"firstName":"Y","lastName":"Y","email":"N"},"address":"{\\"city\\":\\"C\\"}","accountInfomation":{"walletPhone":"Y","iban":"N"}}',
      ),
    );
    expect(data.receiverInfo).toEqual({ firstName: "Y", lastName: "Y", email: "N" });
    expect(data.address).toEqual({ city: "C" });
    expect(data.accountInfomation.iban).toBe("N");
  });

  it("rejects a template value other than Y, C or N and sends objects", () => {
    const bad = { receiverInfo: { firstName: "M" }, address: {}, accountInfomation: {} };
    expect(v.safeParse(acctQueryPaymentFeild.response, bad).success).toBe(false);
    const wire = v.parse(acctQueryPaymentFeild.responseCodec.encode, {
      receiverInfo: { firstName: "Y" },
      address: {},
      accountInfomation: { cardNumber: "C" },
    });
    expect(wire.receiverInfo).toEqual({ firstName: "Y" });
  });
});
