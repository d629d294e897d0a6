import { parseJson, stringifyJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { beneficiaryAdd } from "./beneficiary-add";

const params = {
  merchantNo: "800209",
  merchantRefId: "user-42",
  bankCountry: "PH",
  payoutCurrency: "PHP",
  entityType: "1",
  paymentMethod: "E_WALLET",
  receiverInfo: { firstName: "Juan", lastName: "Cruz", areaCode: "63", phone: "9171234567" },
  address: { countryCode: "PH", city: "Manila", addressLine1: "1 Rizal Ave" },
  accountInfomation: { walletType: "GCASH", walletPhone: "9171234567", accountType: "1" },
} as const;

describe("payout beneficiary/add", () => {
  it("is an unkeyed write", () => {
    expect(beneficiaryAdd.name).toBe("payout.beneficiary.add");
    expect(beneficiaryAdd.path).toBe("/api/v1/beneficiary/add");
    expect(beneficiaryAdd.kind).toBe("write");
    expect("idempotencyKey" in beneficiaryAdd).toBe(false);
  });

  it("sends receiverInfo, address and accountInfomation as JSON text", () => {
    const wire = v.parse(beneficiaryAdd.request, params);
    expect(wire.receiverInfo).toBe(
      '{"firstName":"Juan","lastName":"Cruz","areaCode":"63","phone":"9171234567"}',
    );
    expect(wire.address).toBe('{"countryCode":"PH","city":"Manila","addressLine1":"1 Rizal Ave"}');
    expect(typeof wire.accountInfomation).toBe("string");
  });

  it("decodes the JSON text back to the objects for the sandbox", () => {
    const wire = v.parse(beneficiaryAdd.request, params);
    const back = v.parse(beneficiaryAdd.requestCodec.decode, parseJson(stringifyJson(wire)));
    expect(back).toEqual(params);
    const garbled = { ...wire, receiverInfo: "{not json" };
    expect(v.safeParse(beneficiaryAdd.requestCodec.decode, garbled).success).toBe(false);
  });

  it("takes every documented key inside the JSON parts and rejects unknown ones", () => {
    const full = {
      ...params,
      entityType: "0",
      paymentMethod: "SWIFT",
      receiverInfo: {
        companyName: "Acme",
        firstName: "A",
        lastName: "B",
        areaCode: "1",
        phone: "2",
        email: "a@b.c",
        identityType: "PASSPORT",
        identityNumber: "X1",
        birthDate: "1990-01-01",
        vatNumber: "V1",
      },
      address: {
        countryCode: "GB",
        state: "LDN",
        city: "London",
        addressLine1: "1",
        addressLine2: "2",
        addressLine3: "3",
        postalCode: "EC1",
        townName: "Islington",
      },
      accountInfomation: {
        cardNumber: "123",
        accountType: "0",
        walletType: "W",
        walletPhone: "1",
        swiftCode: "BARCGB22",
        sortCode: "200000",
        branchCode: "1",
        bankHolderName: "Acme",
        bankName: "Barclays",
        pickUpBankName: "P",
        pickUpBankBranchName: "PB",
        pickUpBankBranchId: "1",
        pickUpBankBranchAddress: "addr",
      },
    };
    expect(v.safeParse(beneficiaryAdd.request, full).success).toBe(true);
    // A template may name keys the SDK does not list yet: they are sent, not dropped.
    const extra = v.safeParse(beneficiaryAdd.request, {
      ...params,
      receiverInfo: { firstName: "Juan", nickName: "J" },
    });
    expect(extra.success && extra.output.receiverInfo).toBe('{"firstName":"Juan","nickName":"J"}');
  });

  it("holds the closed sets and formats", () => {
    const bad = (patch: object) =>
      v.safeParse(beneficiaryAdd.request, { ...params, ...patch }).success;
    expect(bad({ entityType: "" })).toBe(false);
    expect(bad({ accountInfomation: { accountType: "3" } })).toBe(false);
    expect(bad({ bankCountry: "PHL" })).toBe(false);
    expect(bad({ payoutCurrency: "php" })).toBe(false);
    expect(bad({ merchantRefId: "" })).toBe(false);
    // paymentMethod is open: a method the SDK does not know yet still goes out.
    expect(bad({ paymentMethod: "CRYPTO" })).toBe(true);
  });

  it("reads { beneficiaryId, payeeStatus }, in either case of the status", () => {
    const data = v.parse(
      beneficiaryAdd.response,
      parseJson('{"beneficiaryId":"1953712585351499776","payeeStatus":"unnecessary"}'),
    );
    expect(data).toEqual({ beneficiaryId: "1953712585351499776", payeeStatus: "UNNECESSARY" });
    const numeric = v.parse(
      beneficiaryAdd.response,
      parseJson('{"beneficiaryId":1953712585351499776,"payeeStatus":"WAITING"}'),
    );
    expect(numeric.beneficiaryId).toBe("1953712585351499776");
    const unknown = v.parse(beneficiaryAdd.response, { beneficiaryId: "1", payeeStatus: "NEW" });
    expect(unknown.payeeStatus).toBe("NEW");
  });
});
