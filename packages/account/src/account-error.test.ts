import { ApiError, NotFoundError } from "@merchantkit/core";
import { describe, expect, it } from "vitest";
import { accountErrorOf } from "./index";

const fields = { message: "m", httpStatus: 200, respCode: "40004" };

describe("accountErrorOf", () => {
  it("reads the error object of an ApiError, a numeric code as text", () => {
    const error = new NotFoundError({
      ...fields,
      detail: {
        code: 40004,
        message: "resource not found",
        details: [{ field: "globalAccountId", message: "names no account" }],
        traceId: "t-1",
        extra: "kept",
      },
    });
    expect(accountErrorOf(error)).toEqual({
      code: "40004",
      message: "resource not found",
      details: [{ field: "globalAccountId", message: "names no account" }],
      traceId: "t-1",
      extra: "kept",
    });
  });

  it("is undefined for anything else, leaving an odd object on detail", () => {
    expect(accountErrorOf(undefined)).toBeUndefined();
    expect(accountErrorOf(new Error("x"))).toBeUndefined();
    expect(accountErrorOf(new ApiError(fields))).toBeUndefined();
    const odd = new ApiError({ ...fields, detail: { reason: "no code" } });
    expect(accountErrorOf(odd)).toBeUndefined();
    expect(odd.detail).toEqual({ reason: "no code" });
  });
});
