import { parseJson, stringifyJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { cardQuery3dsNotify as endpoint } from "./card-query3ds-notify";

const page = { pageNum: 1, pageSize: 10 };

describe("issuing card/query3dsNotify", () => {
  it("declares a read", () => {
    expect(endpoint.name).toBe("issuing.card.query3dsNotify");
    expect(endpoint.path).toBe("/card/query3dsNotify");
    expect(endpoint.kind).toBe("read");
  });

  it("holds txnOrderNo and cardId to 64 characters", () => {
    const ok = (p: object) => v.safeParse(endpoint.request, { ...page, ...p }).success;
    expect(ok({ txnOrderNo: "t".repeat(64) })).toBe(true);
    expect(ok({ txnOrderNo: "t".repeat(65) })).toBe(false);
    expect(ok({ cardId: "1".repeat(64) })).toBe(true);
    expect(ok({ cardId: "1".repeat(65) })).toBe(false);
    const body = parseJson(`{"txnOrderNo":"${"t".repeat(65)}","pageNum":1,"pageSize":10}`);
    expect(v.safeParse(endpoint.requestCodec.decode, body).success).toBe(false);
  });

  it("sends cardId as a JSON string here, and reads a bare number from a caller ahead of it", () => {
    const wire = v.parse(endpoint.request, { ...page, cardId: "1953712585351499776" });
    expect(stringifyJson(wire)).toBe('{"cardId":"1953712585351499776","pageNum":1,"pageSize":10}');
    const body = parseJson('{"cardId":1953712585351499776,"pageNum":1,"pageSize":10}');
    expect(v.parse(endpoint.requestCodec.decode, body).cardId).toBe("1953712585351499776");
  });

  it("holds the paging limits and the time window", () => {
    const ok = (p: object) => v.safeParse(endpoint.request, { ...page, ...p }).success;
    expect(ok({ pageNum: 0 })).toBe(false);
    expect(ok({ pageSize: 0 })).toBe(false);
    expect(ok({ pageSize: 100 })).toBe(true);
    expect(ok({ pageSize: 101 })).toBe(false);
    expect(ok({ startTime: 1754092800, endTime: 1754006400 })).toBe(false);
    expect(ok({ startTime: 1754006400, endTime: 1754092800 })).toBe(true);
  });

  it("decodes the documented delivery record", () => {
    const data = v.parse(
      endpoint.response,
      parseJson(`{"totalRecords":1,"pageSize":10,"pageNum":1,"totalPages":1,"records":[{
        "txnOrderNo":"T2025080100001","merchantNo":"800209","cardId":1953712585351499776,
        "type":"OTP","sendMethod":"WEBHOOK","sendTarget":"https://merchant.example/3ds",
        "sendStatus":"S","sendTime":1754006400123,"card3dsValues":"123456","currency":"USD",
        "amount":12.30,"merchantName":"Coffee"}]}`),
    );
    expect(data.records[0]).toMatchObject({
      cardId: "1953712585351499776",
      type: "OTP",
      sendStatus: "S",
      sendTime: 1754006400123,
      amount: "12.30",
    });
  });
});
