import { parseJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { beneficiaryQueryList } from "./beneficiary-query-list";

const ok = (params: object) =>
  v.safeParse(beneficiaryQueryList.request, { merchantNo: "1", size: 10, current: 1, ...params })
    .success;

describe("payout beneficiary/queryList", () => {
  it("filters by payeeStatus, beneficiaryId and cardNumber", () => {
    expect(ok({ payeeStatus: "PASS", beneficiaryId: "5", cardNumber: "6222" })).toBe(true);
    expect(ok({ cardNo: "6222" })).toBe(false);
  });

  it("pages from 1 with a size of at least 1", () => {
    expect(ok({ current: 0 })).toBe(false);
    expect(ok({ current: 1 })).toBe(true);
    expect(ok({ size: 0 })).toBe(false);
    expect(ok({ size: 1 })).toBe(true);
  });

  it("reads a payout paged result with 64-bit ids", () => {
    const data = v.parse(
      beneficiaryQueryList.response,
      parseJson(
        '{"records":[{"beneficiaryId":1953712585351499776,"payeeStatus":"pass","bankCountry":"PH","payoutCurrency":"PHP","entityType":"1","paymentMethod":"LOCAL"}],"total":1,"size":10,"current":1}',
      ),
    );
    expect(data.records[0]?.beneficiaryId).toBe("1953712585351499776");
    expect(data.records[0]?.payeeStatus).toBe("PASS");
    expect(data.total).toBe(1);
  });
});
