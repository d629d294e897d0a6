/**
 * Issue 18 §6 for the payout area: ids past 64 bits and 10,000-character strings are refused
 * with a RequestValidationError naming the field and the rule, before anything is sent.
 */
import { recordingFetch, refusalOf } from "@merchantkit/core/testing";
import { describe, expect, it } from "vitest";
import { PayoutClient } from "./payout-client";
import { usdRemittance } from "./testing/fixtures";

describe("payout requests beyond what the service takes", () => {
  const sent = recordingFetch();
  const payout = new PayoutClient({
    environment: { origin: "http://127.0.0.1:9" },
    secretKey: "secret",
    merchantNo: "800209",
    fetch: sent.fetch,
  });

  it("refuses payout and beneficiary ids past 64 bits", async () => {
    const rule = "must be a 64-bit id: digits without leading zeros, at most 9223372036854775807";
    expect(
      await refusalOf(payout.transfers.retrieve({ payoutId: "18446744073709551616" })),
    ).toEqual([`payoutId: ${rule}`]);
    const remittance = usdRemittance({
      beneficiaryId: "018446744073709551616",
      payerId: "1953712585351499777",
    });
    expect(await refusalOf(payout.transfers.create(remittance))).toEqual([
      `beneficiaryId: ${rule}`,
    ]);
    expect(sent.calls).toEqual([]);
  });

  it("refuses a 10,000-character string, at the top and inside a JSON-encoded field", async () => {
    const long = "x".repeat(10_000);
    const remittance = usdRemittance({
      beneficiaryId: "1953712585351499776",
      payerId: "1953712585351499777",
      reference: long,
    });
    expect(await refusalOf(payout.transfers.create(remittance))).toEqual([
      "reference: must be at most 256 characters",
    ]);
    const withPayer = usdRemittance({
      beneficiaryId: "1953712585351499776",
      payerDetail: {
        subEntityType: "1",
        country: "SG",
        firstName: "A",
        lastName: long,
        addressEn1: "1 Raffles Place",
        postcode: "048616",
        email: "a@b.co",
        idType: "1",
        idNumber: "E1234567",
      },
    } as never);
    expect(await refusalOf(payout.transfers.create(withPayer))).toEqual([
      "payerDetail.lastName: must be at most 256 characters",
    ]);
    expect(sent.calls).toEqual([]);
  });
});
