import { toValidationIssues } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import * as c from "./index";

const request = c.object({
  clientRequestId: c.string({ maxLength: 4 }),
  note: c.optional(c.string()),
});

describe("object codec messages", () => {
  it("says which field is missing, which is unknown, and when the value is no object", () => {
    const issues = (input: unknown) =>
      toValidationIssues(v.safeParse(request.encode, input).issues ?? []);
    expect(issues({ clientRequestID: "a" })).toEqual([
      { path: "clientRequestId", message: "is required" },
      { path: "clientRequestID", message: "is not a field of this request (check the spelling)" },
    ]);
    expect(issues("text")).toEqual([{ path: "", message: "must be an object" }]);
    expect(issues({ clientRequestId: "abcde" })).toEqual([
      { path: "clientRequestId", message: "must be at most 4 characters" },
    ]);
  });

  it("reads null as absent for an optional field", () => {
    expect(v.parse(request.decode, { clientRequestId: "a", note: null })).toEqual({
      clientRequestId: "a",
      note: undefined,
    });
  });
});
