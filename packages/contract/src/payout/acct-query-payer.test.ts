import { parseJson, stringifyJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { acctQueryPayer } from "./acct-query-payer";

const ok = (params: object) =>
  v.safeParse(acctQueryPayer.request, { merchantNo: "1", size: 10, current: 1, ...params }).success;

describe("payout acct/queryPayer", () => {
  it("takes size -1 (all) or at least 1", () => {
    expect(ok({ size: -1 })).toBe(true);
    expect(ok({ size: 0 })).toBe(false);
    expect(ok({ size: -2 })).toBe(false);
    expect(ok({ size: 1 })).toBe(true);
    expect(ok({ size: 1.5 })).toBe(false);
  });

  it("pages from 1", () => {
    expect(ok({ current: 0 })).toBe(false);
    expect(ok({ current: 1 })).toBe(true);
  });

  it("takes every documented filter and the sort", () => {
    const all = {
      column: "createTime",
      asc: false,
      id: "1953712585351499776",
      subEntityType: "1",
      companyName: "Acme",
      companyNameEn: "Acme",
      firstName: "Ann",
      lastName: "Lee",
      country: "SG",
      registerNo: "R1",
      idType: "0",
      registerDate: "2019-05-01",
    };
    expect(ok(all)).toBe(true);
    expect(ok({ name: "x" })).toBe(false);
    const wire = v.parse(acctQueryPayer.request, { merchantNo: "1", size: -1, current: 1, ...all });
    expect(stringifyJson(wire)).toContain('"id":"1953712585351499776"');
  });

  it("reads a payer page with 64-bit ids and unknown fields kept", () => {
    const data = v.parse(
      acctQueryPayer.response,
      parseJson(
        '{"records":[{"id":1953712585351499776,"merchantNo":"800209","subEntityType":"0","country":"SG","companyNameEn":"Acme","later":"x"}],"total":1,"size":-1,"current":1}',
      ),
    );
    expect(data.records[0]?.id).toBe("1953712585351499776");
    expect(data.records[0]?.companyNameEn).toBe("Acme");
    expect(data.size).toBe(-1);
    expect(v.safeParse(acctQueryPayer.response, { records: [{ id: "1" }] }).success).toBe(false);
  });
});
