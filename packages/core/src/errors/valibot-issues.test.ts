import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { toValidationIssues } from "./valibot-issues";

describe("toValidationIssues", () => {
  it("names the field of a failed union and of fields inside its options", () => {
    const schema = v.object({
      startTime: v.union([v.date("must be a Date"), v.number("must be epoch seconds")]),
      k: v.union([v.object({ a: v.string("must be a string") }), v.number()]),
    });
    const issues = toValidationIssues(
      v.safeParse(schema, { startTime: "yesterday", k: { a: 1 } }).issues ?? [],
    );
    expect(issues.map((i) => i.path)).toEqual(["startTime", "startTime", "k.a", "k"]);
  });

  it("never repeats the received value", () => {
    const issues = toValidationIssues(
      v.safeParse(v.object({ cardNumber: v.pipe(v.string(), v.regex(/^\d{4}$/)) }), {
        cardNumber: "4111111111111111",
      }).issues ?? [],
    );
    expect(JSON.stringify(issues)).not.toContain("4111111111111111");
    expect(issues[0]?.path).toBe("cardNumber");
  });
});
