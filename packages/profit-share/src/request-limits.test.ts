/**
 * Issue 18 §6 for profit share: a gatewayReference past 64 bits and 10,000-character strings
 * (a receiver's description inside the JSON-encoded receivers too) are refused with a
 * RequestValidationError naming the field and the rule, before anything is sent.
 */
import { recordingFetch, refusalOf } from "@merchantkit/core/testing";
import { describe, expect, it } from "vitest";
import { ProfitShareClient } from "./profit-share-client";
import type { ShareParams } from "./types";

describe("profit share requests beyond what the service takes", () => {
  const sent = recordingFetch();
  const profitShare = new ProfitShareClient({
    environment: { origin: "http://127.0.0.1:9" },
    secretKey: "secret",
    merchantNo: "800209",
    fetch: sent.fetch,
  });
  const share = (over: Partial<ShareParams>): ShareParams =>
    ({
      profitType: "share",
      currency: "USD",
      gatewayReference: "1953712585351499776",
      profitCompleted: true,
      receivers: [{ profitDetailReference: "d1", type: "MERCHANT", account: "M1", amount: "1.00" }],
      ...over,
    }) as ShareParams;

  it("refuses a gatewayReference past 64 bits", async () => {
    expect(
      await refusalOf(profitShare.share(share({ gatewayReference: "18446744073709551616" }))),
    ).toEqual([
      "gatewayReference: must be a 64-bit id: digits without leading zeros, at most 9223372036854775807",
    ]);
    expect(sent.calls).toEqual([]);
  });

  it("refuses 10,000-character strings, inside the receivers too", async () => {
    const long = "x".repeat(10_000);
    const receivers = [
      {
        profitDetailReference: "d1",
        type: "MERCHANT",
        account: "M1",
        amount: "1.00",
        description: long,
      },
    ];
    expect(await refusalOf(profitShare.share(share({ receivers })))).toEqual([
      "receivers[0].description: must be at most 256 characters",
    ]);
    expect(
      await refusalOf(profitShare.share(share({ urlCallback: `https://a.example/${long}` }))),
    ).toEqual(["urlCallback: must be at most 2048 characters"]);
    expect(sent.calls).toEqual([]);
  });
});
