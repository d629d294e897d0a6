import { acctQueryPaymentFeild, acctQueryPaymentMethods } from "@merchantkit/contract";
import { describe, expect, it } from "vitest";
import { endpointCaller, errorOf, testRuntime } from "../testing/area-runtime";
import { createPayoutArea } from "./payout-area";

function setup() {
  const t = testRuntime({ reviewDelayMs: 5_000 });
  const area = createPayoutArea(t.runtime);
  return { ...t, area, call: endpointCaller(area, t.runtime) };
}

describe("queryPaymentFeild and queryPaymentMethods", () => {
  it("answers the route's Y/C/N templates, and 42201 for a route that does not exist", () => {
    const { call } = setup();
    const fields = call(acctQueryPaymentFeild, {
      bankCountry: "US",
      payoutCurrency: "USD",
      entityType: "1",
      paymentMethod: "LOCAL",
    });
    expect(fields.receiverInfo).toMatchObject({ firstName: "Y", lastName: "Y", email: "N" });
    expect(fields.accountInfomation).toMatchObject({
      cardNumber: "Y",
      branchCode: "Y",
      bankName: "N",
    });
    expect(fields.address.postalCode).toBe("Y");
    const company = call(acctQueryPaymentFeild, {
      bankCountry: "US",
      payoutCurrency: "USD",
      entityType: "0",
      paymentMethod: "LOCAL",
    });
    expect(company.receiverInfo.companyName).toBe("Y");
    expect(company.receiverInfo.firstName).toBeUndefined();
    const wallet = call(acctQueryPaymentFeild, {
      bankCountry: "PH",
      payoutCurrency: "PHP",
      entityType: "1",
      paymentMethod: "E_WALLET",
      walletType: "GCASH",
    });
    expect(wallet.accountInfomation).toEqual({
      cardNumber: "Y",
      walletType: "Y",
      walletPhone: "C",
    });

    const unknown = errorOf(() =>
      call(acctQueryPaymentFeild, {
        bankCountry: "PH",
        payoutCurrency: "PHP",
        entityType: "0",
        paymentMethod: "E_WALLET",
      }),
    );
    expect(unknown.code).toBe("42201");
    expect(
      errorOf(() =>
        call(acctQueryPaymentFeild, {
          bankCountry: "US",
          payoutCurrency: "EUR",
          entityType: "1",
          paymentMethod: "LOCAL",
        }),
      ).code,
    ).toBe("42201");
  });

  it("lists the methods of the same table", () => {
    const { call } = setup();
    expect(
      call(acctQueryPaymentMethods, {
        destinationCountry: "PH",
        accountCurrency: "PHP",
        entityType: "1",
      }),
    ).toEqual({
      paymentMethods: ["LOCAL", "E_WALLET", "CASH_PICKUP"],
    });
    expect(
      call(acctQueryPaymentMethods, {
        destinationCountry: "CN",
        accountCurrency: "CNY",
        entityType: "0",
      }),
    ).toEqual({
      paymentMethods: ["SWIFT"],
    });
    expect(
      call(acctQueryPaymentMethods, {
        destinationCountry: "FR",
        accountCurrency: "EUR",
        entityType: "1",
      }),
    ).toEqual({
      paymentMethods: [],
    });
  });
});
