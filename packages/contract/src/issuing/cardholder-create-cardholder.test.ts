import { isJsonNumber, parseJson, stringifyJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { cardholderCreateCardholder as endpoint } from "./cardholder-create-cardholder";

const valid = {
  merchantNo: "800209",
  clientRequestId: "req-1",
  firstName: "Ada",
  lastName: "Lovelace",
  email: "ada@example.com",
};

describe("issuing cardholder/createCardholder", () => {
  it("declares the transport semantics", () => {
    expect(endpoint.name).toBe("issuing.cardholder.createCardholder");
    expect(endpoint.path).toBe("/cardholder/createCardholder");
    expect(endpoint.kind).toBe("write");
    expect(endpoint.auth).toBe("issuingApiKey");
    expect(endpoint.idempotencyKey).toEqual({ field: "clientRequestId", maxLength: 64 });
    expect(endpoint.merchantNo).toBe(true);
  });

  it("encodes every documented field", () => {
    const full = {
      ...valid,
      mobile: "13800000000",
      mobileAreaCode: "+86",
      birthDay: "1990-12-10",
      nationality: "CN",
      addressRegionCode: "US",
      addressStateCode: "CA",
      addressCityCode: "SF",
      addressDetailLine1: "1 Market St",
      addressDetailLine2: "Suite 2",
      addressPostalCode: "94105",
      remark: "vip",
    };
    const wire = v.parse(endpoint.request, full);
    expect(wire).toEqual(full);
  });

  it("requires firstName, lastName and email", () => {
    for (const key of ["firstName", "lastName", "email"] as const) {
      const { [key]: _, ...rest } = valid;
      expect(v.safeParse(endpoint.request, rest).success, key).toBe(false);
    }
    expect(v.safeParse(endpoint.request, { ...valid, firstName: "" }).success).toBe(false);
  });

  it("holds each field to its length", () => {
    const limits = {
      firstName: 50,
      lastName: 20,
      mobile: 20,
      mobileAreaCode: 10,
      addressStateCode: 50,
      addressCityCode: 50,
      addressDetailLine1: 200,
      addressDetailLine2: 200,
      addressPostalCode: 20,
      remark: 200,
      clientRequestId: 64,
    };
    for (const [key, max] of Object.entries(limits)) {
      const at = v.safeParse(endpoint.request, { ...valid, [key]: "x".repeat(max) });
      expect(at.success, `${key} at ${max}`).toBe(true);
      const over = v.safeParse(endpoint.request, { ...valid, [key]: "x".repeat(max + 1) });
      expect(over.success, `${key} at ${max + 1}`).toBe(false);
    }
    const email100 = `${"a".repeat(88)}@example.com`;
    expect(email100).toHaveLength(100);
    expect(v.safeParse(endpoint.request, { ...valid, email: email100 }).success).toBe(true);
    expect(v.safeParse(endpoint.request, { ...valid, email: `a${email100}` }).success).toBe(false);
    for (const key of ["nationality", "addressRegionCode"]) {
      expect(v.safeParse(endpoint.request, { ...valid, [key]: "US" }).success).toBe(true);
      expect(v.safeParse(endpoint.request, { ...valid, [key]: "USA" }).success).toBe(false);
    }
  });

  it("rejects an invalid e-mail and a birthDay not in YYYY-MM-DD", () => {
    for (const email of ["ada", "ada@", "@example.com", "ada@example", "a da@example.com"]) {
      expect(v.safeParse(endpoint.request, { ...valid, email }).success, email).toBe(false);
    }
    expect(v.safeParse(endpoint.request, { ...valid, birthDay: "10/12/1990" }).success).toBe(false);
    expect(v.safeParse(endpoint.request, { ...valid, birthDay: "1990-13-01" }).success).toBe(false);
  });

  it("refuses a birthDay the calendar does not have, naming the field and the rule", () => {
    for (const birthDay of ["1990-02-30", "1990-04-31", "1900-02-29"]) {
      const issues = endpoint.parseRequest({ ...valid, birthDay }).issues;
      expect(
        issues?.map((i) => [i.path?.[0]?.key, i.message]),
        birthDay,
      ).toEqual([["birthDay", "must be a date that exists (a day the month has)"]]);
    }
    expect(endpoint.parseRequest({ ...valid, birthDay: "2000-02-29" }).success).toBe(true);
  });

  it("refuses the update request's addressCountryCode and unknown keys", () => {
    expect(v.safeParse(endpoint.request, { ...valid, addressCountryCode: "US" }).success).toBe(
      false,
    );
  });

  it("decodes a wire request for the sandbox with the same rules", () => {
    const body = parseJson(
      `{"merchantNo":"800209","clientRequestId":"r1","firstName":"${"x".repeat(51)}","lastName":"L","email":"a@b.co"}`,
    );
    expect(v.safeParse(endpoint.requestCodec.decode, body).success).toBe(false);
  });

  it("decodes the cardholder with a 64-bit id and null for unset values", () => {
    const data = v.parse(
      endpoint.response,
      parseJson(
        '{"cardholderId":1953712585351499776,"firstName":"Ada","lastName":"Lovelace","email":"ada@example.com","mobile":null,"nationality":"GB","remark":null}',
      ),
    );
    expect(data.cardholderId).toBe("1953712585351499776");
    expect(data.nationality).toBe("GB");
    expect(data.mobile == null).toBe(true);
    const wire = v.parse(endpoint.responseCodec.encode, {
      ...data,
      mobile: undefined,
      remark: undefined,
    });
    expect(isJsonNumber(wire.cardholderId)).toBe(true);
    expect(stringifyJson(wire)).toContain('"cardholderId":1953712585351499776');
  });
});
