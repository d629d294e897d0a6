import {
  cardGetOperateRecordList,
  cardOperate,
  cardQuery3dsNotify,
  queryTxnList,
} from "@merchantkit/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSandbox, startSandbox } from "../start-sandbox";
import { clientFor, TEST_NOW } from "../testing/sandbox-client";

const S = TEST_NOW / 1000;

describe("the issuing queries: windows, filters, ordering and paging", () => {
  let sandbox: RunningSandbox;
  let api: ReturnType<typeof clientFor>;

  beforeAll(async () => {
    sandbox = await startSandbox({ settleDelayMs: 1_000 });
    api = clientFor(sandbox);
    await api.admin("POST", "/clock/freeze", { at: TEST_NOW });
  });
  afterAll(() => sandbox.close());

  const newCard = async () =>
    (await api.admin("POST", "/issuing/cards", { balance: "10000.00" })).card.cardId as string;
  const auth = (body: Record<string, unknown>) =>
    api.admin("POST", "/issuing/transactions", body).then((a) => a.transaction);

  it("pages across 3+ pages without skips or repeats while records are added and change", async () => {
    const cardId = await newCard();
    const first: string[] = [];
    for (let i = 0; i < 250; i++) first.push((await auth({ cardId, amount: "1.00" })).txnOrderNo);
    const seen: string[] = [];
    let totalPages = 0;
    for (let pageNum = 1; ; pageNum++) {
      const page = await api.ok(queryTxnList, { cardId, pageNum, pageSize: 100 });
      totalPages = page.totalPages;
      expect(page).toMatchObject({ pageNum, current: pageNum, pageSize: 100 });
      seen.push(...page.records.map((r) => r.txnOrderNo));
      if (page.records.length < 100) break;
      // Meanwhile: new records arrive, an earlier one settles.
      await auth({ cardId, amount: "2.00" });
      await api.admin("POST", `/issuing/transactions/${first[pageNum]}/settle`);
    }
    expect(totalPages).toBe(3);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.slice(0, 250)).toEqual(first);
    // Each round added an authorization, and settling one added its clearing: all at the end.
    const total = await api.ok(queryTxnList, { cardId, pageNum: 1, pageSize: 1 });
    expect(seen).toHaveLength(254);
    expect(total.totalRecords).toBe(254);
    expect([...seen].sort()).toEqual(seen);
  });

  it("filters a window in UTC seconds, both ends inclusive to the second", async () => {
    const cardId = await newCard();
    const at = [TEST_NOW + 60_000, TEST_NOW + 60_999, TEST_NOW + 61_000, TEST_NOW + 59_999];
    const made = [];
    for (const t of at) made.push((await auth({ cardId, amount: "1.00", at: t })).txnOrderNo);
    const inWindow = async (startTime?: number, endTime?: number) =>
      (
        await api.ok(queryTxnList, { cardId, startTime, endTime, pageNum: 1, pageSize: 10 })
      ).records.map((r) => r.txnOrderNo);
    expect(await inWindow(S + 60, S + 60)).toEqual([made[0], made[1]]);
    expect(await inWindow(S + 61)).toEqual([made[2]]);
    expect(await inWindow(undefined, S + 59)).toEqual([made[3]]);
    // Ordered by time, not by creation.
    expect(await inWindow()).toEqual([made[3], made[0], made[1], made[2]]);
    const empty = await api.ok(queryTxnList, {
      cardId,
      startTime: S + 62,
      pageNum: 1,
      pageSize: 10,
    });
    expect(empty).toMatchObject({ totalRecords: 0, totalPages: 0, records: [] });
  });

  it("filters by txnType, txnStatus and cardId with exact totals", async () => {
    const cardId = await newCard();
    const other = await newCard();
    const a = await auth({ cardId, amount: "3.00" });
    await auth({ cardId, amount: "4.00" });
    await auth({ cardId, amount: "1.00", decline: "Do not honor" });
    await auth({ cardId: other, amount: "5.00" });
    await api.admin("POST", `/issuing/transactions/${a.txnOrderNo}/clear`);
    const count = async (filters: Record<string, unknown>) =>
      (await api.ok(queryTxnList, { cardId, pageNum: 1, pageSize: 1, ...filters })).totalRecords;
    expect(await count({})).toBe(4);
    expect(await count({ txnType: "AUTHORIZATION" })).toBe(3);
    expect(await count({ txnType: "CLEARING" })).toBe(1);
    expect(await count({ txnStatus: "P" })).toBe(1);
    expect(await count({ txnStatus: "F" })).toBe(1);
    expect(await count({ txnType: "AUTHORIZATION", txnStatus: "S" })).toBe(1);
    const page2 = await api.ok(queryTxnList, { cardId, txnStatus: "S", pageNum: 2, pageSize: 1 });
    expect(page2).toMatchObject({ totalRecords: 2, totalPages: 2 });
    expect(page2.records[0]?.txnType).toBe("CLEARING");
    // The filter follows status changes (its cached answer is dropped).
    await api.admin("POST", `/issuing/transactions/${page2.records[0]?.txnOrderNo}/refund`);
    expect(await count({ txnStatus: "P" })).toBe(2);
    const unknown = await api.ok(queryTxnList, {
      cardId: "1953712585399999999",
      pageNum: 1,
      pageSize: 10,
    });
    expect(unknown.totalRecords).toBe(0);
  });

  it("lists operate records by card, type, clientRequestId and operateTime window", async () => {
    const cardId = await newCard();
    await api.admin("POST", "/clock/advance", { ms: 10_000 });
    await api.ok(cardOperate, { clientRequestId: "q-freeze", cardId, type: "FREEZE" });
    await api.admin("POST", "/clock/advance", { ms: 10_000 });
    await api.ok(cardOperate, { clientRequestId: "q-unfreeze", cardId, type: "UNFREEZE" });
    const list = (filters: Record<string, unknown>) =>
      api.ok(cardGetOperateRecordList, { cardId, pageNum: 1, pageSize: 10, ...filters });
    expect((await list({})).records.map((r) => [r.type, r.status])).toEqual([
      ["CREATE", "S"],
      ["FREEZE", "S"],
      ["UNFREEZE", "P"],
    ]);
    expect((await list({ type: "FREEZE" })).records.map((r) => r.clientRequestId)).toEqual([
      "q-freeze",
    ]);
    const byKey = await api.ok(cardGetOperateRecordList, {
      clientRequestId: "q-unfreeze",
      pageNum: 1,
      pageSize: 10,
    });
    expect(byKey.records.map((r) => r.type)).toEqual(["UNFREEZE"]);
    const now = (await api.admin("GET", "/clock")).now / 1000;
    expect((await list({ startTime: now - 10, endTime: now })).records.map((r) => r.type)).toEqual([
      "FREEZE",
      "UNFREEZE",
    ]);
    expect((await list({ startTime: now })).records.map((r) => r.type)).toEqual(["UNFREEZE"]);
  });

  it("lists 3DS deliveries by txnOrderNo, cardId and sendTime window", async () => {
    const cardId = await newCard();
    const a = await auth({ cardId, amount: "12.30" });
    const one = await api.admin("POST", "/issuing/3ds", {
      cardId,
      txnOrderNo: a.txnOrderNo,
      amount: "12.30",
      at: TEST_NOW + 5_000,
    });
    expect(one.delivery).toMatchObject({ type: "OTP", sendMethod: "WEBHOOK", sendStatus: "S" });
    await api.admin("POST", "/issuing/3ds", { cardId, at: TEST_NOW + 9_000 });
    const page = await api.ok(cardQuery3dsNotify, { cardId, pageNum: 1, pageSize: 10 });
    expect(page.totalRecords).toBe(2);
    expect(page.records[0]).toMatchObject({
      txnOrderNo: a.txnOrderNo,
      cardId,
      merchantNo: "M1000001",
      amount: "12.30",
      currency: "USD",
      sendTime: TEST_NOW + 5_000,
    });
    expect(page.records[0]?.card3dsValues).toMatch(/^\d{6}$/);
    const byTxn = await api.ok(cardQuery3dsNotify, {
      txnOrderNo: a.txnOrderNo,
      pageNum: 1,
      pageSize: 10,
    });
    expect(byTxn.totalRecords).toBe(1);
    const late = await api.ok(cardQuery3dsNotify, {
      cardId,
      startTime: S + 6,
      pageNum: 1,
      pageSize: 10,
    });
    expect(late.records.map((r) => r.sendTime)).toEqual([TEST_NOW + 9_000]);
  });
});
