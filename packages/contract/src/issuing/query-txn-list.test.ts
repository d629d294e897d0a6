import { parseJson, stringifyJson } from "@merchantkit/core";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { queryTxnList as endpoint } from "./query-txn-list";

const page = { pageNum: 1, pageSize: 50 };

describe("issuing queryTxnList", () => {
  it("declares a read at the area root", () => {
    expect(endpoint.name).toBe("issuing.queryTxnList");
    expect(endpoint.path).toBe("/queryTxnList");
    expect(endpoint.kind).toBe("read");
  });

  it("filters by all five transaction types and the three statuses", () => {
    for (const txnType of ["AUTHORIZATION", "REVERSAL", "CLEARING", "REFUND", "VERIFICATION"]) {
      expect(v.safeParse(endpoint.request, { ...page, txnType }).success, txnType).toBe(true);
    }
    for (const txnStatus of ["S", "F", "P"]) {
      expect(v.safeParse(endpoint.request, { ...page, txnStatus }).success, txnStatus).toBe(true);
    }
    expect(v.safeParse(endpoint.request, { ...page, txnStatus: "X" }).success).toBe(false);
  });

  it("sends cardId as a bare 64-bit number and times as seconds", () => {
    const wire = v.parse(endpoint.request, {
      cardId: "1953712585351499776",
      startTime: new Date(Date.UTC(2025, 7, 1)),
      ...page,
    });
    expect(stringifyJson(wire)).toBe(
      '{"cardId":1953712585351499776,"startTime":1754006400,"pageNum":1,"pageSize":50}',
    );
  });

  it("holds the paging limits and the time window", () => {
    const ok = (p: object) => v.safeParse(endpoint.request, { ...page, ...p }).success;
    expect(ok({ pageNum: 0 })).toBe(false);
    expect(ok({ pageNum: 1 })).toBe(true);
    expect(ok({ pageSize: 0 })).toBe(false);
    expect(ok({ pageSize: 1 })).toBe(true);
    expect(ok({ pageSize: 100 })).toBe(true);
    expect(ok({ pageSize: 101 })).toBe(false);
    expect(ok({ startTime: 2, endTime: 1 })).toBe(false);
    expect(ok({ endTime: 1 })).toBe(true);
  });

  it("decodes a card transaction with null fees and a negative refund amount", () => {
    const data = v.parse(
      endpoint.response,
      parseJson(`{"totalRecords":2,"pageSize":50,"current":1,"pageNum":1,"totalPages":1,"records":[
        {"txnType":"AUTHORIZATION","txnStatus":"S","txnOrderNo":"T1","originTxnOrderNo":null,
         "originTxnOrderNoForRefund":null,"cardId":1953712585351499776,"authTime":1754006400123,
         "authorizationCode":"A1B2C3","authMessageDesc":"approved","transactionAmount":100.10,
         "transactionCurrency":"EUR","transactionTime":1754006400000,"cardAmount":109.20,
         "cardCurrency":"USD","settleAmount":null,"settleCurrency":null,"settleTime":null,
         "transactionFee":null,"transactionFeeCurrency":null,"crossBorderFee":0.50,
         "crossBorderFeeCurrency":"USD","exchangeFee":null,"exchangeFeeCurrency":null,
         "merchantId":"M1","merchantName":"Coffee","merchantCountry":"Germany",
         "merchantCountryCode":"DE","merchantStateProvince":"BE","merchantCity":"Berlin",
         "merchantPostalCode":"10115","merchantMccCode":"5814"},
        {"txnType":"REFUND","txnStatus":"P","txnOrderNo":"T2","cardId":7,"cardAmount":-5.00,
         "originTxnOrderNoForRefund":"T1"}]}`),
    );
    const [auth, refund] = data.records;
    expect(auth).toMatchObject({
      cardId: "1953712585351499776",
      transactionAmount: "100.10",
      cardAmount: "109.20",
      crossBorderFee: "0.50",
      authTime: 1754006400123,
      merchantMccCode: "5814",
    });
    expect(auth?.transactionFee == null).toBe(true);
    expect(refund?.cardAmount).toBe("-5.00");
  });

  it("requires txnType, txnStatus, txnOrderNo and cardId in a record", () => {
    const record = { txnType: "CLEARING", txnStatus: "S", txnOrderNo: "T", cardId: "1" };
    const pageOf = (r: object) => ({ totalRecords: 1, pageSize: 1, totalPages: 1, records: [r] });
    expect(v.safeParse(endpoint.response, pageOf(record)).success).toBe(true);
    for (const key of Object.keys(record)) {
      const { [key as keyof typeof record]: _, ...rest } = record;
      expect(v.safeParse(endpoint.response, pageOf(rest)).success, key).toBe(false);
    }
  });
});
