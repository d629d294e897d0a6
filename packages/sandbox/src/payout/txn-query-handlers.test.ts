import {
  acctAddPayer,
  acctQueryAcctCurrency,
  beneficiaryAdd,
  txnQuery,
  txnQueryList,
  txnRemittance,
} from "@merchantkit/contract";
import { describe, expect, it } from "vitest";
import { endpointCaller, errorOf, testRuntime } from "../testing/area-runtime";
import { individualPayer, phWallet } from "../testing/payout-fixtures";
import { createPayoutArea } from "./payout-area";

/** Six payouts a minute apart from 10:00:00 UTC, settling 2.5 min later (the 3rd fails); at 10:06 the last two are P. */
function withPayouts() {
  const t = testRuntime({ settleDelayMs: 150_000 });
  const area = createPayoutArea(t.runtime);
  const call = endpointCaller(area, t.runtime);
  const payerId = call(acctAddPayer, individualPayer());
  const beneficiaryId = call(beneficiaryAdd, phWallet()).beneficiaryId;
  const ids: string[] = [];
  for (let i = 0; i < 6; i++) {
    const p = call(txnRemittance, {
      beneficiaryId,
      payerId,
      requestId: `q-${i}`,
      sourceAmount: "10.00",
      sourceCurrency: "USD",
      targetCurrency: "PHP",
      transactionPurpose: "gift",
      chargeFlag: "N",
      ...(i === 2 ? { reference: "fail" } : {}),
    });
    ids.push(p.payoutId);
    t.advance(60_000);
  }
  return { ...t, call, ids };
}

describe("txn/query", () => {
  it("finds by requestId or payoutId; unknown or mismatching pair → 40402", () => {
    const { call, ids } = withPayouts();
    expect(call(txnQuery, { requestId: "q-1" }).payoutId).toBe(ids[1]);
    expect(call(txnQuery, { payoutId: ids[1] as string }).requestId).toBe("q-1");
    expect(errorOf(() => call(txnQuery, { requestId: "nope" }))).toEqual({
      code: "40402",
      message: "payout not found",
    });
    expect(errorOf(() => call(txnQuery, { requestId: "q-1", payoutId: ids[2] })).code).toBe(
      "40402",
    );
    expect(errorOf(() => call(txnQuery, { requestId: "q-1", merchantNo: "M1000002" })).code).toBe(
      "40402",
    );
  });
});

describe("txn/queryList", () => {
  it("filters the create-time window (inclusive, UTC) and pages in creation order", () => {
    const { call, ids } = withPayouts();
    const all = call(txnQueryList, {
      createTimeStartTime: "2026-06-22 00:00:00",
      createTimeEndTime: "2026-06-22 23:59:59",
      size: 4,
      current: 1,
    });
    expect(all).toMatchObject({ total: 6, size: 4, current: 1 });
    expect(all.records.map((r) => r.payoutId)).toEqual(ids.slice(0, 4));
    const second = call(txnQueryList, {
      createTimeStartTime: "2026-06-22 00:00:00",
      createTimeEndTime: "2026-06-22 23:59:59",
      size: 4,
      current: 2,
    });
    expect(second.records.map((r) => r.requestId)).toEqual(["q-4", "q-5"]);
    const window = call(txnQueryList, {
      createTimeStartTime: "2026-06-22 10:01:00",
      createTimeEndTime: "2026-06-22 10:03:00",
      size: 10,
      current: 1,
    });
    expect(window.records.map((r) => r.requestId)).toEqual(["q-1", "q-2", "q-3"]);
    const none = call(txnQueryList, {
      createTimeStartTime: "2026-06-22 09:00:00",
      createTimeEndTime: "2026-06-22 09:59:59",
      size: 10,
      current: 1,
    });
    expect(none).toMatchObject({ total: 0, records: [] });
  });

  it("filters status, method, ids and the payout-time window (finishTime)", () => {
    const { call, ids } = withPayouts();
    const day = {
      createTimeStartTime: "2026-06-22 00:00:00",
      createTimeEndTime: "2026-06-22 23:59:59",
      size: 10,
      current: 1,
    };
    expect(
      call(txnQueryList, { ...day, payoutStatus: "F" }).records.map((r) => r.requestId),
    ).toEqual(["q-2"]);
    expect(call(txnQueryList, { ...day, payoutStatus: "S" }).total).toBe(3);
    expect(
      call(txnQueryList, { ...day, payoutStatus: "P" }).records.map((r) => r.requestId),
    ).toEqual(["q-4", "q-5"]);
    expect(call(txnQueryList, { ...day, payoutMethod: "E_WALLET" }).total).toBe(6);
    expect(call(txnQueryList, { ...day, payoutMethod: "LOCAL" }).total).toBe(0);
    expect(call(txnQueryList, { ...day, requestId: "q-3" }).records.map((r) => r.payoutId)).toEqual(
      [ids[3]],
    );
    expect(call(txnQueryList, { ...day, payoutId: ids[0] }).total).toBe(1);
    // q-1 finished 10:03:30, q-2 10:04:30, q-3 10:05:30; unfinished payouts have no payout time.
    const paid = call(txnQueryList, {
      ...day,
      payoutStartTime: "2026-06-22 10:03:30",
      payoutEndTime: "2026-06-22 10:05:29",
    });
    expect(paid.records.map((r) => r.requestId)).toEqual(["q-1", "q-2"]);
    expect(call(txnQueryList, { ...day, payoutStartTime: "2026-06-22 10:00:00" }).total).toBe(4);
  });
});

describe("acct/queryAcctCurrency", () => {
  it("answers every ledger currency, sorted, with in-flight payouts as frozen", () => {
    const { call } = withPayouts();
    const balances = call(acctQueryAcctCurrency, {});
    expect(balances.map((b) => b.currency)).toEqual(["EUR", "HKD", "SGD", "USD"]);
    // 6 × 10.00 debited, q-2 refunded; q-4 and q-5 still P.
    expect(balances[3]).toEqual({
      currency: "USD",
      availableBalance: "999950.00",
      frozenBalance: "20.00",
      totalBalance: "999970.00",
    });
    expect(call(acctQueryAcctCurrency, { currency: "GBP" })).toEqual([]);
  });
});
