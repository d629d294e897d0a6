import { parseJson, stringifyJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { cardGetOperateRecordList as endpoint } from "./card-get-operate-record-list";

const page = { pageNum: 1, pageSize: 20 };

describe("issuing card/getOperateRecordList", () => {
  it("declares a read", () => {
    expect(endpoint.name).toBe("issuing.card.getOperateRecordList");
    expect(endpoint.path).toBe("/card/getOperateRecordList");
    expect(endpoint.kind).toBe("read");
    expect("idempotencyKey" in endpoint).toBe(false);
  });

  it("sends the filters, a Date as UTC epoch seconds", () => {
    const wire = v.parse(endpoint.request, {
      cardId: "1953712585351499776",
      clientRequestId: "r1",
      type: "DEPOSIT",
      startTime: new Date("2025-08-01T00:00:00.999Z"),
      endTime: 1754092800,
      ...page,
    });
    expect(stringifyJson(wire)).toBe(
      '{"cardId":1953712585351499776,"clientRequestId":"r1","type":"DEPOSIT","startTime":1754006400,"endTime":1754092800,"pageNum":1,"pageSize":20}',
    );
  });

  it("lists all merchant cards when cardId is omitted, and passes a type the SDK does not know", () => {
    expect(v.safeParse(endpoint.request, page).success).toBe(true);
    expect(v.safeParse(endpoint.request, { ...page, type: "CREATE" }).success).toBe(true);
    expect(v.safeParse(endpoint.request, { ...page, type: "REISSUE" }).success).toBe(true);
  });

  it("holds pageNum ≥ 1 and pageSize 1–100", () => {
    const at = (p: object) => v.safeParse(endpoint.request, { ...page, ...p }).success;
    expect(at({ pageNum: 0 })).toBe(false);
    expect(at({ pageNum: 1 })).toBe(true);
    expect(at({ pageSize: 0 })).toBe(false);
    expect(at({ pageSize: 1 })).toBe(true);
    expect(at({ pageSize: 100 })).toBe(true);
    expect(at({ pageSize: 101 })).toBe(false);
  });

  it("rejects a window whose start is after its end, in both directions", () => {
    const start = new Date("2025-08-02T00:00:00Z");
    const end = new Date("2025-08-01T00:00:00Z");
    expect(v.safeParse(endpoint.request, { ...page, startTime: start, endTime: end }).success).toBe(
      false,
    );
    expect(v.safeParse(endpoint.request, { ...page, startTime: 200, endTime: 100 }).success).toBe(
      false,
    );
    expect(v.safeParse(endpoint.request, { ...page, startTime: 100, endTime: 100 }).success).toBe(
      true,
    );
    expect(v.safeParse(endpoint.request, { ...page, startTime: end, endTime: start }).success).toBe(
      true,
    );
    expect(v.safeParse(endpoint.request, { ...page, startTime: 200 }).success).toBe(true);
    const body = parseJson(
      '{"startTime":1754092800,"endTime":1754006400,"pageNum":1,"pageSize":20}',
    );
    const decoded = v.safeParse(endpoint.requestCodec.decode, body);
    expect(decoded.success).toBe(false);
    expect(decoded.issues?.[0]?.path?.[0]?.key).toBe("endTime");
  });

  it("decodes a page of operation records with 64-bit ids, fees and digits intact", () => {
    const data = v.parse(
      endpoint.response,
      parseJson(`{"totalRecords":1,"pageSize":20,"current":1,"totalPages":1,"records":[{
        "operateRecordId":1953712585351499777,"cardId":1953712585351499776,"clientRequestId":"r1",
        "type":"DEPOSIT","status":"S","remark":null,"amount":100.10,"currency":"USD",
        "operateTime":1754006400123,
        "feeList":[{"feeType":"DEPOSIT","feeAmount":1.50,"feeCurrency":"USD"}]}]}`),
    );
    expect(data.pageNum).toBeUndefined();
    expect(data.current).toBe(1);
    const record = data.records[0];
    expect(record?.operateRecordId).toBe("1953712585351499777");
    expect(record?.cardId).toBe("1953712585351499776");
    expect(record?.amount).toBe("100.10");
    expect(record?.operateTime).toBe(1754006400123);
    expect(record?.feeList?.[0]?.feeAmount).toBe("1.50");
    const freeze = {
      operateRecordId: "1",
      cardId: "2",
      clientRequestId: "r",
      type: "FREEZE",
      status: "X",
    };
    const bad = { totalRecords: 1, pageSize: 20, pageNum: 1, totalPages: 1, records: [freeze] };
    expect(v.safeParse(endpoint.response, bad).success).toBe(false);
  });
});
