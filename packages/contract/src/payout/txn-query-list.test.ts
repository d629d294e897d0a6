import { parseJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { txnQueryList } from "./txn-query-list";

const base = {
  merchantNo: "800209",
  createTimeStartTime: "2025-01-01 00:00:00",
  createTimeEndTime: "2025-01-31 23:59:59",
  size: 20,
  current: 1,
};

const ok = (params: object) => v.safeParse(txnQueryList.request, { ...base, ...params }).success;

describe("payout txn/queryList", () => {
  it("takes the documented sample fields and filters", () => {
    expect(
      ok({
        requestId: "r1",
        payoutId: "1953712585351499776",
        payoutStatus: "S",
        payoutStartTime: "2025-01-02 00:00:00",
        payoutEndTime: "2025-01-03 00:00:00",
        payoutMethod: "E_WALLET",
      }),
    ).toBe(true);
  });

  it("needs the create-time window and paging", () => {
    for (const key of ["createTimeStartTime", "createTimeEndTime", "size", "current"] as const) {
      const { [key]: _, ...missing } = base;
      expect(v.safeParse(txnQueryList.request, missing).success).toBe(false);
    }
  });

  it("holds times to YYYY-MM-DD HH:mm:ss and windows in order", () => {
    expect(ok({ createTimeStartTime: "2025-01-01T00:00:00Z" })).toBe(false);
    expect(ok({ createTimeStartTime: "2025-01-01" })).toBe(false);
    expect(ok({ createTimeStartTime: "2025-02-01 00:00:00" })).toBe(false);
    expect(ok({ createTimeEndTime: "2025-01-01 00:00:00" })).toBe(true);
    expect(
      ok({ payoutStartTime: "2025-01-05 00:00:00", payoutEndTime: "2025-01-04 00:00:00" }),
    ).toBe(false);
    expect(ok({ payoutStartTime: "2025-01-05 00:00:00" })).toBe(true);
  });

  it("refuses times that do not exist, naming the field and the rule", () => {
    const issues = (params: object) =>
      txnQueryList.parseRequest({ ...base, ...params }).issues?.map((i) => ({
        field: i.path?.map((p) => p.key).join("."),
        message: i.message,
      }));
    const rule = "must be a time that exists (a day the month has, 00:00:00 to 23:59:59)";
    expect(
      issues({
        createTimeStartTime: "2026-02-30 00:00:00",
        createTimeEndTime: "2026-02-31 25:61:61",
      }),
    ).toEqual([
      { field: "createTimeStartTime", message: rule },
      { field: "createTimeEndTime", message: rule },
    ]);
    expect(issues({ payoutStartTime: "2025-01-01 24:00:00" })).toEqual([
      { field: "payoutStartTime", message: rule },
    ]);
    expect(issues({ createTimeEndTime: "2028-02-29 23:59:59" })).toBeUndefined();
  });

  it("pages from 1 with a size of at least 1", () => {
    expect(ok({ size: 0 })).toBe(false);
    expect(ok({ size: 1 })).toBe(true);
    expect(ok({ current: 0 })).toBe(false);
    expect(ok({ current: 1 })).toBe(true);
  });

  it("reads a transfer page with 64-bit payout ids", () => {
    const data = v.parse(
      txnQueryList.response,
      parseJson(
        '{"records":[{"payoutId":1953712585351499776,"requestId":"r1","payoutStatus":"S","payoutMethod":"E_WALLET"}],"total":1,"size":20,"current":1}',
      ),
    );
    expect(data.records[0]?.payoutId).toBe("1953712585351499776");
    expect(data.records[0]?.payoutStatus).toBe("S");
  });
});
