import {
  accountTransactionsServiceQuery,
  cardCreateCard,
  cardDeposit,
  cardGetOperateRecordList,
  cardholderCreateCardholder,
  cardOperate,
  cardOperateEvent,
  cardReturnCardBalance,
} from "@merchantkit/contract";
import { parseJson } from "@merchantkit/core";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSandbox, startSandbox } from "../start-sandbox";
import { clientFor, TEST_NOW } from "../testing/sandbox-client";
import { defaultProducts } from "./products";

const USD = defaultProducts[0]?.productId as string;

describe("a card's whole life over HTTP", () => {
  let sandbox: RunningSandbox;
  let api: ReturnType<typeof clientFor>;

  beforeAll(async () => {
    sandbox = await startSandbox({ settleDelayMs: 2_000 });
    api = clientFor(sandbox);
    await api.admin("POST", "/clock/freeze", { at: TEST_NOW });
  });
  afterAll(() => sandbox.close());

  const advance = (ms: number) => api.admin("POST", "/clock/advance", { ms });
  const record = async (operateRecordId: string) => {
    const page = await api.ok(cardGetOperateRecordList, { pageNum: 1, pageSize: 100 });
    return page.records.find((r) => r.operateRecordId === operateRecordId);
  };
  const card = async (cardId: string) => (await api.admin("GET", `/issuing/cards/${cardId}`)).card;

  it("creates, funds, freezes, unfreezes, returns and terminates with exact postings", async () => {
    const holder = await api.ok(cardholderCreateCardholder, {
      merchantNo: "M1000001",
      clientRequestId: "life-holder",
      firstName: "Ada",
      lastName: "Lovelace",
      email: "ada@example.com",
    });
    const { cardId } = await api.ok(cardCreateCard, {
      clientRequestId: "life-card",
      cardholderId: holder.cardholderId,
      productId: USD,
      amount: "100.00",
    });

    // Accepted as P: the merchant is charged at once, the card is credited at settlement.
    const created = await api.ok(cardGetOperateRecordList, { cardId, pageNum: 1, pageSize: 10 });
    expect(created.records).toHaveLength(1);
    const create = created.records[0];
    expect(create).toMatchObject({
      cardId,
      clientRequestId: "life-card",
      type: "CREATE",
      status: "P",
      amount: "100.00",
      currency: "USD",
      operateTime: TEST_NOW,
      feeList: [
        { feeType: "CREATE", feeAmount: "1.00", feeCurrency: "USD" },
        { feeType: "DEPOSIT", feeAmount: "1.50", feeCurrency: "USD" },
      ],
    });
    expect((await card(cardId)).availableBalance).toBe("0.00");
    await advance(2_000);
    expect((await record(create?.operateRecordId as string))?.status).toBe("S");
    expect((await card(cardId)).availableBalance).toBe("100.00");

    const deposit = await api.ok(cardDeposit, {
      clientRequestId: "life-dep",
      cardId,
      amount: "50.00",
    });
    await advance(2_000);
    const freeze = await api.ok(cardOperate, {
      clientRequestId: "life-frz",
      cardId,
      type: "FREEZE",
    });
    await advance(2_000);
    expect((await card(cardId)).status).toBe("FROZEN");
    const unfreeze = await api.ok(cardOperate, {
      clientRequestId: "life-unf",
      cardId,
      type: "UNFREEZE",
    });
    await advance(2_000);
    expect((await card(cardId)).status).toBe("ACTIVE");
    const ret = await api.ok(cardReturnCardBalance, {
      clientRequestId: "life-ret",
      cardId,
      amount: "30.00",
    });
    await advance(2_000);
    expect((await card(cardId)).availableBalance).toBe("120.00");
    const terminate = await api.ok(cardOperate, {
      clientRequestId: "life-end",
      cardId,
      type: "TERMINATE",
    });
    await advance(2_000);
    const final = await card(cardId);
    expect(final).toMatchObject({ status: "TERMINATED", availableBalance: "0.00" });

    const ids = [create?.operateRecordId, deposit.operateRecordId, freeze.operateRecordId];
    ids.push(unfreeze.operateRecordId, ret.operateRecordId, terminate.operateRecordId);
    const all = await api.ok(cardGetOperateRecordList, { cardId, pageNum: 1, pageSize: 10 });
    expect(all.records.map((r) => [r.type, r.status, r.amount])).toEqual([
      ["CREATE", "S", "100.00"],
      ["DEPOSIT", "S", "50.00"],
      ["FREEZE", "S", undefined],
      ["UNFREEZE", "S", undefined],
      ["RETURN", "S", "30.00"],
      ["TERMINATE", "S", "120.00"],
    ]);
    expect(all.records.map((r) => r.operateRecordId)).toEqual(ids);
    expect(all.records[1]?.feeList).toEqual([
      { feeType: "DEPOSIT", feeAmount: "0.75", feeCurrency: "USD" },
    ]);

    // The account transactions, found by serviceId = operateRecordId, in request order.
    const { list } = await api.ok(accountTransactionsServiceQuery, {
      requestId: "life-acct",
      serviceIds: [...ids].reverse(),
    });
    expect(list.map((t) => [t.serviceId, t.amount, t.businessType, t.externalOrderId])).toEqual([
      [terminate.operateRecordId, "120.00", "CARD_RETURN", "life-end"],
      [ret.operateRecordId, "30.00", "CARD_RETURN", "life-ret"],
      [deposit.operateRecordId, "-50.00", "CARD_DEPOSIT", "life-dep"],
      [deposit.operateRecordId, "-0.75", "FEE", "life-dep"],
      [create?.operateRecordId, "-100.00", "CARD_CREATE", "life-card"],
      [create?.operateRecordId, "-1.00", "FEE", "life-card"],
      [create?.operateRecordId, "-1.50", "FEE", "life-card"],
    ]);
    expect(list.every((t) => t.currency === "USD")).toBe(true);
    const { balances } = await api.admin("GET", "/account/balances");
    expect(balances.USD).toBe("999996.75");

    // Every status change was pushed: P then S for each of the six operations.
    const deliveries = (await sandbox.admin.deliveries()).filter((d) => d.kind === "issuing");
    const events = deliveries.map((d) => v.parse(cardOperateEvent.decode, parseJson(d.body)).data);
    expect(events.map((e) => `${e.type}:${e.status}`)).toEqual([
      "CREATE:P",
      "CREATE:S",
      "DEPOSIT:P",
      "DEPOSIT:S",
      "FREEZE:P",
      "FREEZE:S",
      "UNFREEZE:P",
      "UNFREEZE:S",
      "RETURN:P",
      "RETURN:S",
      "TERMINATE:P",
      "TERMINATE:S",
    ]);
    expect(events.at(-1)).toMatchObject({
      operateRecordId: terminate.operateRecordId,
      amount: "120.00",
    });
  });
});
