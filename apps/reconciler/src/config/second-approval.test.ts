// RECONCILER_SECOND_APPROVAL_ABOVE read into per-currency amounts: one amount for every
// currency, a CODE=AMOUNT list with `*` for the rest, unset for none; malformed values refused
// naming the setting and the rule.
import { describe, expect, it } from "vitest";
import { ConfigError } from "./load-config";
import { limitFor, secondApprovalLimits } from "./second-approval";

describe("secondApprovalLimits", () => {
  it("reads one amount, a per-currency list with a default, or nothing", () => {
    expect(secondApprovalLimits(undefined)).toBeUndefined();
    expect(secondApprovalLimits("  ")).toBeUndefined();
    const one = secondApprovalLimits("1000");
    expect([limitFor(one, "USD"), limitFor(one, "JPY"), limitFor(one, null)]).toEqual([
      "1000",
      "1000",
      "1000",
    ]);
    const list = secondApprovalLimits(" usd=1000.00, JPY=150000 ,*=500");
    expect(list).toEqual({ byCurrency: { USD: "1000.00", JPY: "150000" }, other: "500" });
    expect([limitFor(list, "USD"), limitFor(list, "EUR"), limitFor(list, null)]).toEqual([
      "1000.00",
      "500",
      "500",
    ]);
    // Without `*`, other currencies need no second approval.
    const only = secondApprovalLimits("EUR=0");
    expect([limitFor(only, "EUR"), limitFor(only, "USD")]).toEqual(["0", undefined]);
  });

  it("refuses malformed values, naming the setting", () => {
    for (const [value, rule] of [
      ["1,000", /the amount must be an amount \(decimal, not negative\), not "1,000"/],
      ["-1", /not negative/],
      ["1e3", /not "1e3"/],
      ["USD=10,EUR", /each entry must be CODE=AMOUNT .*not "EUR"/],
      ["DOLLAR=10", /not "DOLLAR=10"/],
      ["USD=10=2", /not "USD=10=2"/],
      ["USD=1,usd=2", /USD is given twice/],
      ["*=1,*=2", /\* is given twice/],
      ["EUR=abc", /EUR must be an amount/],
    ] as const) {
      let error: unknown;
      try {
        secondApprovalLimits(value);
      } catch (caught) {
        error = caught;
      }
      expect(error, value).toBeInstanceOf(ConfigError);
      expect((error as Error).message, value).toMatch(/RECONCILER_SECOND_APPROVAL_ABOVE: /);
      expect((error as Error).message, value).toMatch(rule);
    }
  });
});
