import { describe, expect, it } from "vitest";
import { payoutEndpoints } from "./index";

describe("payout endpoints", () => {
  it("are all signed, merchantNo-filled payout endpoints named after their path", () => {
    expect(payoutEndpoints).toHaveLength(13);
    const names = new Set<string>();
    for (const e of payoutEndpoints) {
      expect(e.area).toBe("payout");
      expect(e.auth).toBe("sign");
      expect(e.merchantNo).toBe(true);
      expect(e.path.startsWith("/api/v1/")).toBe(true);
      expect(e.name).toBe(`payout.${e.path.slice("/api/v1/".length).split("/").join(".")}`);
      names.add(e.name);
    }
    expect(names.size).toBe(payoutEndpoints.length);
  });

  it("key only the remittance", () => {
    const keyed = payoutEndpoints.filter((e) => "idempotencyKey" in e).map((e) => e.name);
    expect(keyed).toEqual(["payout.txn.remittance"]);
  });
});
