import { parseJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { accountErrorObject } from "./error-object";

describe("account error object", () => {
  it("parses the designed shape", () => {
    const text =
      '{"code":"40001","message":"invalid parameter","details":[{"field":"serviceIds","message":"must not be empty"}],"traceId":"t-1"}';
    expect(v.parse(accountErrorObject.decode, parseJson(text))).toEqual({
      code: "40001",
      message: "invalid parameter",
      details: [{ field: "serviceIds", message: "must not be empty" }],
      traceId: "t-1",
    });
  });

  it("reads a numeric code as text, nulls as absent, and keeps unknown fields", () => {
    const data = v.parse(
      accountErrorObject.decode,
      parseJson('{"code":40009,"message":null,"extra":1}'),
    );
    expect(data.code).toBe("40009");
    expect(data.message ?? undefined).toBeUndefined();
    expect((data as Record<string, unknown>).extra).toBe(1);
  });

  it("needs a code", () => {
    expect(v.safeParse(accountErrorObject.decode, { message: "x" }).success).toBe(false);
    expect(v.safeParse(accountErrorObject.encode, { code: "" }).success).toBe(false);
  });
});
