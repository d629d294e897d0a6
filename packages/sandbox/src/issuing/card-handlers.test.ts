import {
  accountTransactionsServiceQuery,
  cardCreateCard,
  cardDeposit,
  cardGetOperateRecordList,
  cardholderCreateCardholder,
  cardOperate,
  cardReturnCardBalance,
} from "@merchantkit/contract";
import { subtractDecimal } from "@merchantkit/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSandbox, startSandbox } from "../start-sandbox";
import { clientFor, TEST_NOW } from "../testing/sandbox-client";
import { defaultProducts } from "./products";

const USD = defaultProducts[0]?.productId as string;

describe("card endpoints: refusals and settlement outcomes", () => {
  let sandbox: RunningSandbox;
  let api: ReturnType<typeof clientFor>;
  let holderId: string;
  let n = 0;

  beforeAll(async () => {
    // A small USD balance, so the 80007 boundary is easy to reach.
    sandbox = await startSandbox({ settleDelayMs: 1_000, balances: { USD: "1000.00" } });
    api = clientFor(sandbox);
    await api.admin("POST", "/clock/freeze", { at: TEST_NOW });
    const holder = await api.ok(cardholderCreateCardholder, {
      merchantNo: "M1000001",
      clientRequestId: "errors-holder",
      firstName: "Grace",
      lastName: "Hopper",
      email: "grace@example.com",
    });
    holderId = holder.cardholderId;
  });
  afterAll(() => sandbox.close());

  const advance = (ms: number) => api.admin("POST", "/clock/advance", { ms });
  const key = () => `k-${++n}`;
  /** A settled card; by default of a new cardholder, so the 5-card limit never interferes. */
  const newCard = async (amount = "10.00", holder?: string) => {
    const cardholderId =
      holder ??
      (
        await api.ok(cardholderCreateCardholder, {
          merchantNo: "M1000001",
          clientRequestId: key(),
          firstName: "Card",
          lastName: "Owner",
          email: `owner-${n}@example.com`,
        })
      ).cardholderId;
    const { cardId } = await api.ok(cardCreateCard, {
      clientRequestId: key(),
      cardholderId,
      productId: USD,
      amount,
    });
    await advance(1_000);
    return cardId;
  };
  const recordOf = async (operateRecordId: string) => {
    const page = await api.ok(cardGetOperateRecordList, { pageNum: 1, pageSize: 100 });
    return page.records.find((r) => r.operateRecordId === operateRecordId);
  };
  const codeOf = async (
    endpoint: Parameters<typeof api.call>[0],
    params: Record<string, unknown>,
  ) => (await api.call(endpoint, params)).respCode;

  it("refuses an unknown cardholder (80001), product or card (81001)", async () => {
    const base = { clientRequestId: key(), productId: USD, amount: "10.00" };
    expect(await codeOf(cardCreateCard, { ...base, cardholderId: "1953712585399999999" })).toBe(
      "80001",
    );
    expect(await codeOf(cardCreateCard, { ...base, cardholderId: holderId, productId: "42" })).toBe(
      "81001",
    );
    const unknownCard = { clientRequestId: key(), cardId: "1953712585399999999" };
    expect(await codeOf(cardDeposit, { ...unknownCard, amount: "5.00" })).toBe("81001");
    expect(await codeOf(cardOperate, { ...unknownCard, type: "FREEZE" })).toBe("81001");
    expect(await codeOf(cardReturnCardBalance, { ...unknownCard, amount: "5.00" })).toBe("81001");
  });

  it("holds amounts to the product's limits: 80009 below 1.00, 80008 above 50000.00", async () => {
    const base = { cardholderId: holderId, productId: USD };
    expect(await codeOf(cardCreateCard, { ...base, clientRequestId: key(), amount: "0.99" })).toBe(
      "80009",
    );
    expect(
      await codeOf(cardCreateCard, { ...base, clientRequestId: key(), amount: "50000.01" }),
    ).toBe("80008");
    const cardId = await newCard();
    expect(await codeOf(cardDeposit, { clientRequestId: key(), cardId, amount: "0.50" })).toBe(
      "80009",
    );
    expect(await codeOf(cardDeposit, { clientRequestId: key(), cardId, amount: "50000.01" })).toBe(
      "80008",
    );
    expect(await codeOf(cardDeposit, { clientRequestId: key(), cardId, amount: "1.00" })).toBe(
      "20000",
    );
  });

  it("refuses money the merchant account cannot cover with its fees (80007)", async () => {
    const { balances } = await api.admin("GET", "/account/balances");
    const cardId = await newCard();
    const after = (await api.admin("GET", "/account/balances")).balances.USD as string;
    // 10.00 onto the card, 1.00 creation fee, 0.15 deposit fee (1.5 %).
    expect(subtractDecimal(balances.USD, after)).toBe("11.15");
    // Top the balance down to exactly 101.50: a 100.00 deposit costs 100.00 + 1.50 fee.
    await api.admin("POST", "/account/postings", {
      direction: "debit",
      currency: "USD",
      amount: subtractDecimal(after, "101.50"),
    });
    expect(await codeOf(cardDeposit, { clientRequestId: key(), cardId, amount: "100.01" })).toBe(
      "80007",
    );
    expect(await codeOf(cardDeposit, { clientRequestId: key(), cardId, amount: "100.00" })).toBe(
      "20000",
    );
    expect((await api.admin("GET", "/account/balances")).balances.USD).toBe("0.00");
    expect(await codeOf(cardDeposit, { clientRequestId: key(), cardId, amount: "1.00" })).toBe(
      "80007",
    );
    await api.admin("POST", "/account/postings", {
      direction: "credit",
      currency: "USD",
      amount: "5000.00",
    });
  });

  it("limits a cardholder to 5 live cards (80011); a terminated card frees a place", async () => {
    const holder = await api.ok(cardholderCreateCardholder, {
      merchantNo: "M1000001",
      clientRequestId: key(),
      firstName: "Many",
      lastName: "Cards",
      email: "many@example.com",
    });
    const cards = [];
    for (let i = 0; i < 5; i++) cards.push(await newCard("2.00", holder.cardholderId));
    const sixth = {
      clientRequestId: key(),
      cardholderId: holder.cardholderId,
      productId: USD,
      amount: "2.00",
    };
    expect(await codeOf(cardCreateCard, sixth)).toBe("80011");
    await api.ok(cardOperate, { clientRequestId: key(), cardId: cards[0], type: "TERMINATE" });
    await advance(1_000);
    expect(await codeOf(cardCreateCard, { ...sixth, clientRequestId: key() })).toBe("20000");
  });

  it("refuses operations that do not fit the card's state (40000)", async () => {
    const cardId = await newCard();
    expect(await codeOf(cardOperate, { clientRequestId: key(), cardId, type: "UNFREEZE" })).toBe(
      "40000",
    );
    await api.ok(cardOperate, { clientRequestId: key(), cardId, type: "FREEZE" });
    await advance(1_000);
    expect(await codeOf(cardOperate, { clientRequestId: key(), cardId, type: "FREEZE" })).toBe(
      "40000",
    );
    await api.ok(cardOperate, { clientRequestId: key(), cardId, type: "TERMINATE" });
    await advance(1_000);
    for (const [endpoint, extra] of [
      [cardDeposit, { amount: "5.00" }],
      [cardReturnCardBalance, { amount: "5.00" }],
      [cardOperate, { type: "UNFREEZE" }],
      [cardOperate, { type: "TERMINATE" }],
    ] as const) {
      const answer = await api.call(endpoint, { clientRequestId: key(), cardId, ...extra });
      expect(answer.respCode).toBe("40000");
      expect(answer.respMsg).toBe("card is terminated");
    }
  });

  it("accepts two quick FREEZEs and fails the second when it settles", async () => {
    const cardId = await newCard();
    const first = await api.ok(cardOperate, { clientRequestId: key(), cardId, type: "FREEZE" });
    const second = await api.ok(cardOperate, { clientRequestId: key(), cardId, type: "FREEZE" });
    await advance(1_000);
    expect((await recordOf(first.operateRecordId))?.status).toBe("S");
    expect(await recordOf(second.operateRecordId)).toMatchObject({
      status: "F",
      remark: "card is already frozen",
    });
  });

  it("fails a return larger than the card balance at settlement, moving no money", async () => {
    const cardId = await newCard("20.00");
    const { operateRecordId } = await api.ok(cardReturnCardBalance, {
      clientRequestId: key(),
      cardId,
      amount: "20.01",
    });
    expect((await recordOf(operateRecordId))?.status).toBe("P");
    await advance(1_000);
    expect(await recordOf(operateRecordId)).toMatchObject({
      status: "F",
      remark: "card balance not enough",
      feeList: [],
    });
    const { list } = await api.ok(accountTransactionsServiceQuery, {
      requestId: key(),
      serviceIds: [operateRecordId],
    });
    expect(list).toEqual([]);
    expect((await api.admin("GET", `/issuing/cards/${cardId}`)).card.availableBalance).toBe(
      "20.00",
    );
  });

  it("applies a repeated clientRequestId once (the server replays the first answer)", async () => {
    const cardId = await newCard();
    const params = { clientRequestId: key(), cardId, amount: "3.00" };
    const first = await api.ok(cardDeposit, params);
    const again = await api.ok(cardDeposit, params);
    expect(again.operateRecordId).toBe(first.operateRecordId);
    const page = await api.ok(cardGetOperateRecordList, {
      clientRequestId: params.clientRequestId,
      pageNum: 1,
      pageSize: 10,
    });
    expect(page.totalRecords).toBe(1);
    const { list } = await api.ok(accountTransactionsServiceQuery, {
      requestId: key(),
      serviceIds: [first.operateRecordId],
    });
    expect(list).toHaveLength(2);
    // The same key with other parameters is a duplicate (80010), not a second deposit.
    expect(await codeOf(cardDeposit, { ...params, amount: "4.00" })).toBe("80010");
  });

  it("lets admin force outcomes: a failed deposit gives the merchant its money back", async () => {
    const cardId = await newCard();
    const before = (await api.admin("GET", "/account/balances")).balances.USD;
    const { operateRecordId } = await api.ok(cardDeposit, {
      clientRequestId: key(),
      cardId,
      amount: "40.00",
    });
    const failed = await api.admin("POST", `/issuing/operations/${operateRecordId}/fail`);
    expect(failed.operation).toMatchObject({ status: "F", feeList: [] });
    const { list } = await api.ok(accountTransactionsServiceQuery, {
      requestId: key(),
      serviceIds: [operateRecordId],
    });
    expect(list.map((t) => [t.amount, t.businessType])).toEqual([
      ["-40.00", "CARD_DEPOSIT"],
      ["-0.60", "FEE"],
      ["40.00", "CARD_DEPOSIT_REVERSAL"],
      ["0.60", "FEE_REVERSAL"],
    ]);
    expect((await api.admin("GET", "/account/balances")).balances.USD).toBe(before);
    expect((await api.admin("GET", `/issuing/cards/${cardId}`)).card.availableBalance).toBe(
      "10.00",
    );
    // The scheduled settlement finds it final and leaves it alone.
    await advance(1_000);
    expect((await recordOf(operateRecordId))?.status).toBe("F");
    await expect(
      api.admin("POST", `/issuing/operations/${operateRecordId}/settle`),
    ).rejects.toMatchObject({
      status: 409,
    });

    const early = await api.ok(cardDeposit, { clientRequestId: key(), cardId, amount: "5.00" });
    const settled = await api.admin("POST", `/issuing/operations/${early.operateRecordId}/settle`);
    expect(settled.operation.status).toBe("S");
    expect((await api.admin("GET", `/issuing/cards/${cardId}`)).card.availableBalance).toBe(
      "15.00",
    );
  });
});
