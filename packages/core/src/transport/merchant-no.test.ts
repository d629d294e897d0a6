import { describe, expect, it } from "vitest";
import { isConfigurationError } from "../errors/local-errors";
import { requireMerchantNo } from "./merchant-no";

const scope = { calls: "payout", client: "PayoutClient" };

describe("requireMerchantNo", () => {
  it("refuses a call with merchantNo neither configured nor given, naming where it goes", async () => {
    const refused = requireMerchantNo({ currency: "USD" }, undefined, scope);
    const error = await refused?.catch((e: unknown) => e);
    expect(isConfigurationError(error)).toBe(true);
    expect((error as Error).message).toBe(
      "merchantNo is required for payout calls: pass it to new PayoutClient({ merchantNo }) or in the params",
    );
  });

  it("lets the call go with either merchantNo, or params the transport refuses itself", () => {
    expect(requireMerchantNo({}, "M1", scope)).toBeUndefined();
    expect(requireMerchantNo({ merchantNo: "M1" }, undefined, scope)).toBeUndefined();
    for (const params of [null, [], "x"]) {
      expect(requireMerchantNo(params, undefined, scope)).toBeUndefined();
    }
  });
});
