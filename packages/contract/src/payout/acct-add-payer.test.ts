import { parseJson, stringifyJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { acctAddPayer } from "./acct-add-payer";

const business = {
  merchantNo: "800209",
  subEntityType: "0",
  country: "SG",
  companyNameEn: "Acme Pte Ltd",
  companyName: "Acme",
  addressEn1: "1 Raffles Pl",
  addressEn2: "#10-01",
  addressEn3: "Tower 1",
  postcode: "048616",
  email: "ops@acme.sg",
  areaCode: "65",
  phoneNumber: "61234567",
  state: "SG",
  city: "Singapore",
  idType: "2",
  idNumber: "201912345K",
  idValidDateFrom: "2020-01-01",
  idValidDateTo: "2030-12-31",
  registerNo: "201912345K",
  registerDate: "2019-05-01",
} as const;

const individual = {
  merchantNo: "800209",
  subEntityType: "1",
  country: "SG",
  firstName: "Ann",
  lastName: "Lee",
  birthDate: "1990-02-03",
  idType: "1",
  idNumber: "E1234567",
} as const;

const ok = (params: object) => v.safeParse(acctAddPayer.request, params).success;

describe("payout acct/addPayer", () => {
  it("takes every documented payer field", () => {
    expect(acctAddPayer.kind).toBe("write");
    expect(ok(business)).toBe(true);
    expect(ok(individual)).toBe(true);
    const wire = v.parse(acctAddPayer.request, business);
    expect(v.parse(acctAddPayer.requestCodec.decode, parseJson(stringifyJson(wire)))).toEqual(
      business,
    );
  });

  it("asks for the names the entity type needs", () => {
    const { companyNameEn: _a, companyName: _b, ...nameless } = business;
    expect(ok(nameless)).toBe(false);
    expect(ok({ ...nameless, companyName: "Acme" })).toBe(true);
    const { firstName: _c, ...noFirst } = individual;
    expect(ok(noFirst)).toBe(false);
    const { lastName: _d, ...noLast } = individual;
    expect(ok(noLast)).toBe(false);
  });

  it("lets a future subEntityType through, holds dates to YYYY-MM-DD and needs country", () => {
    expect(ok({ ...individual, subEntityType: "2" })).toBe(true);
    expect(ok({ ...individual, idValidDateTo: "31/12/2030" })).toBe(false);
    const { country: _, ...noCountry } = individual;
    expect(ok(noCountry)).toBe(false);
    // idType is open: a new document type still goes out.
    expect(ok({ ...individual, idType: "9" })).toBe(true);
  });

  it("reads the payer id as a string, even when sent as a 64-bit number", () => {
    expect(v.parse(acctAddPayer.response, parseJson('"1953712585351499776"'))).toBe(
      "1953712585351499776",
    );
    expect(v.parse(acctAddPayer.response, parseJson("1953712585351499776"))).toBe(
      "1953712585351499776",
    );
    expect(v.safeParse(acctAddPayer.response, parseJson("{}")).success).toBe(false);
  });
});
