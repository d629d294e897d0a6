import { describe, expect, it } from "vitest";
import { classifyProfitShareCode, profitShareCodes } from "./codes";

describe("profit share codes", () => {
  it("classifies the designed table", () => {
    expect(classifyProfitShareCode("20000")).toBeUndefined();
    expect(classifyProfitShareCode("40000")).toBe("invalid_request");
    expect(classifyProfitShareCode("40100")).toBe("authentication");
    expect(classifyProfitShareCode("40400")).toBe("not_found");
    expect(classifyProfitShareCode("40401")).toBe("not_found");
    expect(classifyProfitShareCode("40900")).toBe("duplicate");
    expect(classifyProfitShareCode("42201")).toBe("invalid_request");
    expect(classifyProfitShareCode("42202")).toBe("invalid_request");
    expect(classifyProfitShareCode("42203")).toBe("insufficient_balance");
    expect(classifyProfitShareCode("50000")).toBe("server");
    expect(classifyProfitShareCode("12345")).toBeUndefined();
  });

  it("marks every code but 20000 as assumed", () => {
    for (const [code, info] of Object.entries(profitShareCodes)) {
      expect(info.source).toBe(code === "20000" ? "documented" : "assumed");
    }
  });
});
