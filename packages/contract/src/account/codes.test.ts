import { describe, expect, it } from "vitest";
import { accountCodes, classifyAccountCode } from "./codes";

describe("account codes", () => {
  it("classifies the documented codes", () => {
    expect(classifyAccountCode("20000")).toBeUndefined();
    expect(classifyAccountCode("40001")).toBe("invalid_request");
    expect(classifyAccountCode("40003")).toBe("permission");
    expect(classifyAccountCode("40004")).toBe("not_found");
    expect(classifyAccountCode("40006")).toBe("duplicate");
    expect(classifyAccountCode("40007")).toBe("server");
    expect(classifyAccountCode("40009")).toBe("permission");
    expect(classifyAccountCode("49999")).toBeUndefined();
  });

  it("marks the apikey and timestamp failures as assumed authentication errors", () => {
    expect(accountCodes["40100"]).toMatchObject({ kind: "authentication", source: "assumed" });
    expect(accountCodes["40101"]).toMatchObject({ kind: "authentication", source: "assumed" });
    expect(accountCodes["40005"].source).toBe("documented");
  });
});
