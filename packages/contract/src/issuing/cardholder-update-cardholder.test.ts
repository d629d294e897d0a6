import { parseJson, stringifyJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { cardholderUpdateCardholder as endpoint } from "./cardholder-update-cardholder";

describe("issuing cardholder/updateCardholder", () => {
  it("has no idempotency key and fills merchantNo", () => {
    expect(endpoint.name).toBe("issuing.cardholder.updateCardholder");
    expect(endpoint.path).toBe("/cardholder/updateCardholder");
    expect(endpoint.kind).toBe("write");
    expect("idempotencyKey" in endpoint).toBe(false);
    expect(endpoint.merchantNo).toBe(true);
  });

  it("sends only the fields given, the cardholderId as a bare 64-bit number", () => {
    const wire = v.parse(endpoint.request, {
      merchantNo: "800209",
      cardholderId: "1953712585351499776",
      addressCountryCode: "US",
      mobile: "555",
    });
    expect(stringifyJson(wire)).toBe(
      '{"merchantNo":"800209","cardholderId":1953712585351499776,"mobile":"555","addressCountryCode":"US"}',
    );
  });

  it("uses addressCountryCode instead of addressRegionCode", () => {
    const base = { merchantNo: "800209", cardholderId: "1" };
    expect(v.safeParse(endpoint.request, { ...base, addressRegionCode: "US" }).success).toBe(false);
    expect(v.safeParse(endpoint.request, { ...base, addressCountryCode: "USA" }).success).toBe(
      false,
    );
  });

  it("keeps the create limits on the fields it sends", () => {
    const base = { merchantNo: "800209", cardholderId: "1" };
    expect(v.safeParse(endpoint.request, { ...base, firstName: "x".repeat(50) }).success).toBe(
      true,
    );
    expect(v.safeParse(endpoint.request, { ...base, firstName: "x".repeat(51) }).success).toBe(
      false,
    );
    expect(v.safeParse(endpoint.request, { ...base, lastName: "x".repeat(21) }).success).toBe(
      false,
    );
    expect(v.safeParse(endpoint.request, { ...base, email: "not-an-email" }).success).toBe(false);
  });

  it("requires cardholderId, and the sandbox reads it from a JSON number", () => {
    expect(v.safeParse(endpoint.request, { merchantNo: "800209" }).success).toBe(false);
    const body = parseJson(
      '{"merchantNo":"800209","cardholderId":1953712585351499776,"lastName":"Byron"}',
    );
    expect(v.parse(endpoint.requestCodec.decode, body)).toEqual({
      merchantNo: "800209",
      cardholderId: "1953712585351499776",
      lastName: "Byron",
    });
  });

  it("decodes the updated cardholder", () => {
    const data = v.parse(
      endpoint.response,
      parseJson(
        '{"cardholderId":42,"firstName":"Ada","lastName":"Byron","email":"ada@example.com","addressRegionCode":"US"}',
      ),
    );
    expect(data).toMatchObject({ cardholderId: "42", lastName: "Byron", addressRegionCode: "US" });
  });
});
