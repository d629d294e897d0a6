import { describe, expect, it } from "vitest";
import { isRequestValidationError } from "../errors/local-errors";
import { refuseUnusableIdempotencyKey } from "./option-checks";

describe("refuseUnusableIdempotencyKey", () => {
  it("refuses an options object that names idempotencyKey with the value undefined", () => {
    // What `create(params, { idempotencyKey: error.idempotencyKey })` sends after an error that
    // carries no key: taken as "no key", the write would go out again under a new one.
    let error: unknown;
    try {
      refuseUnusableIdempotencyKey({ idempotencyKey: undefined }, "/api/v1/txn/remittance");
    } catch (e) {
      error = e;
    }
    expect(isRequestValidationError(error)).toBe(true);
    expect(error).toMatchObject({ field: "idempotencyKey", path: "/api/v1/txn/remittance" });
    expect((error as Error).message).toContain("error.idempotencyKey");
    expect((error as Error).message).toContain("leave the option out");
  });

  it("refuses null like undefined, and a params field by its own name", () => {
    expect(() => refuseUnusableIdempotencyKey({ idempotencyKey: null })).toThrow(/idempotencyKey/);
    let error: unknown;
    try {
      refuseUnusableIdempotencyKey(
        { clientRequestId: undefined },
        "/card/deposit",
        "clientRequestId",
      );
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ field: "clientRequestId", path: "/card/deposit" });
    expect((error as Error).message).toContain("leave the field out");
    expect(() =>
      refuseUnusableIdempotencyKey({ cardId: "1" }, "/card/deposit", "clientRequestId"),
    ).not.toThrow();
  });

  it("refuses a blank key, empty or only whitespace, in the option or the params field", () => {
    for (const blank of ["", "   ", "\t\n"]) {
      let error: unknown;
      try {
        refuseUnusableIdempotencyKey({ idempotencyKey: blank }, "/card/deposit");
      } catch (e) {
        error = e;
      }
      expect(isRequestValidationError(error)).toBe(true);
      expect(error).toMatchObject({ field: "idempotencyKey", path: "/card/deposit" });
      expect((error as Error).message).toContain("must not be blank");
      expect(() =>
        refuseUnusableIdempotencyKey(
          { clientRequestId: blank },
          "/card/deposit",
          "clientRequestId",
        ),
      ).toThrow(/clientRequestId: must not be blank/);
    }
    expect(() => refuseUnusableIdempotencyKey({ idempotencyKey: " k " })).not.toThrow();
  });

  it("lets options without the key, or with one, through", () => {
    expect(() => refuseUnusableIdempotencyKey({})).not.toThrow();
    expect(() => refuseUnusableIdempotencyKey({ timeoutMs: 5 })).not.toThrow();
    expect(() => refuseUnusableIdempotencyKey({ idempotencyKey: "order-42" })).not.toThrow();
  });
});
