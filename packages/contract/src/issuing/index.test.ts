import { describe, expect, it } from "vitest";
import { issuingEndpoints } from "./index";

describe("issuing endpoints", () => {
  it("lists all nine endpoints once, each with a unique name and path", () => {
    expect(issuingEndpoints).toHaveLength(9);
    expect(new Set(issuingEndpoints.map((e) => e.name)).size).toBe(9);
    expect(issuingEndpoints.map((e) => e.path).sort()).toEqual([
      "/card/createCard",
      "/card/deposit",
      "/card/getOperateRecordList",
      "/card/operate",
      "/card/query3dsNotify",
      "/card/returnCardBalance",
      "/cardholder/createCardholder",
      "/cardholder/updateCardholder",
      "/queryTxnList",
    ]);
    for (const e of issuingEndpoints) {
      expect(e.area).toBe("issuing");
      expect(e.auth).toBe("issuingApiKey");
      expect(e.codes("80007")).toBe("insufficient_balance");
    }
  });
});
