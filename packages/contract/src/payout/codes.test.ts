import { describe, expect, it } from "vitest";
import { classifyPayoutCode, payoutCodes } from "./codes";

describe("payout business codes", () => {
  it("maps each assumed code to the typed error a caller acts on", () => {
    expect(classifyPayoutCode("20000")).toBeUndefined();
    expect(classifyPayoutCode("40000")).toBe("invalid_request");
    expect(classifyPayoutCode("40100")).toBe("authentication");
    expect(classifyPayoutCode("40300")).toBe("permission");
    expect(classifyPayoutCode("40400")).toBe("not_found");
    expect(classifyPayoutCode("40900")).toBe("duplicate");
    expect(classifyPayoutCode("40901")).toBe("duplicate");
    expect(classifyPayoutCode("42200")).toBe("invalid_request");
    expect(classifyPayoutCode("42202")).toBe("insufficient_balance");
    expect(classifyPayoutCode("50000")).toBe("server");
    expect(classifyPayoutCode("12345")).toBeUndefined();
  });

  it("marks only the success code as documented", () => {
    for (const [code, info] of Object.entries(payoutCodes)) {
      expect(info.source).toBe(code === "20000" ? "documented" : "assumed");
    }
  });
});
