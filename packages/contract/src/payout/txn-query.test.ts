import { parseJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { txnQuery } from "./txn-query";

const ok = (params: object) =>
  v.safeParse(txnQuery.request, { merchantNo: "1", ...params }).success;

describe("payout txn/query", () => {
  it("needs requestId or payoutId", () => {
    expect(txnQuery.kind).toBe("read");
    expect(ok({})).toBe(false);
    expect(ok({ requestId: "r1" })).toBe(true);
    expect(ok({ payoutId: "1953712585351499776" })).toBe(true);
    expect(ok({ requestId: "r1", payoutId: "1" })).toBe(true);
    expect(ok({ requestId: "x".repeat(33) })).toBe(false);
    expect(v.safeParse(txnQuery.requestCodec.decode, { merchantNo: "1" }).success).toBe(false);
  });

  it("reads a failed payout with its error and times", () => {
    const data = v.parse(
      txnQuery.response,
      parseJson(
        '{"payoutId":"1953712585351499776","requestId":"r1","payoutStatus":"F","payoutMethod":"E_WALLET","beneficiaryId":1953712585351499777,"sourceAmount":"10.00","sourceCurrency":"USD","targetAmount":"560.10","targetCurrency":"PHP","fee":"0.10","feeCurrency":"USD","exchangeRate":"56.01","chargeFlag":"N","errorCode":"E01","errorMsg":"wallet closed","createTime":"2025-01-02 03:04:05","finishTime":"2025-01-02 03:05:00"}',
      ),
    );
    expect(data.payoutStatus).toBe("F");
    expect(data.beneficiaryId).toBe("1953712585351499777");
    expect(data.targetAmount).toBe("560.10");
    expect(data.errorMsg).toBe("wallet closed");
  });

  it("reads the sample's four fields alone", () => {
    const data = v.parse(txnQuery.response, {
      payoutId: "1",
      requestId: "r1",
      payoutStatus: "S",
      payoutMethod: "E_WALLET",
    });
    expect(data.payoutStatus).toBe("S");
  });
});
