import { parseJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { beneficiaryQueryDetail } from "./beneficiary-query-detail";

describe("payout beneficiary/queryDetail", () => {
  it("asks by beneficiaryId", () => {
    const wire = v.parse(beneficiaryQueryDetail.request, { merchantNo: "1", beneficiaryId: "9" });
    expect(wire).toEqual({ merchantNo: "1", beneficiaryId: "9" });
    expect(v.safeParse(beneficiaryQueryDetail.request, { merchantNo: "1" }).success).toBe(false);
  });

  it("decodes the JSON-encoded parts, as text or as objects", () => {
    const data = v.parse(
      beneficiaryQueryDetail.response,
      parseJson(
        JSON.stringify({
          beneficiaryId: "1953712585351499776",
          payeeStatus: "PASS",
          merchantRefId: "u1",
          bankCountry: "PH",
          payoutCurrency: "PHP",
          entityType: "1",
          paymentMethod: "E_WALLET",
          receiverInfo: '{"firstName":"Juan"}',
          address: { city: "Manila" },
          accountInfomation: null,
          createTime: "2025-01-02 03:04:05",
          newField: true,
        }),
      ),
    );
    expect(data.receiverInfo).toEqual({ firstName: "Juan" });
    expect(data.address).toEqual({ city: "Manila" });
    expect(data.payeeStatus).toBe("PASS");
    expect((data as Record<string, unknown>).newField).toBe(true);
  });
});
