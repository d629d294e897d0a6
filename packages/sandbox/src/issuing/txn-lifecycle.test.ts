import { cardTransactionEvent, queryTxnList } from "@merchantkit/contract";
import { parseJson } from "@merchantkit/core";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSandbox, startSandbox } from "../start-sandbox";
import { clientFor, TEST_NOW } from "../testing/sandbox-client";
import { MERCHANTS } from "./merchants";

const DAY = 86_400_000;
const byName = (name: string) => MERCHANTS.findIndex((m) => m.merchantName === name);

describe("card transactions driven by the admin routes, read with queryTxnList", () => {
  let sandbox: RunningSandbox;
  let api: ReturnType<typeof clientFor>;

  beforeAll(async () => {
    sandbox = await startSandbox();
    api = clientFor(sandbox);
    await api.admin("POST", "/clock/freeze", { at: TEST_NOW });
  });
  afterAll(() => sandbox.close());

  const newCard = async (balance = "500.00") =>
    (await api.admin("POST", "/issuing/cards", { balance })).card.cardId as string;
  const balanceOf = async (cardId: string) =>
    (await api.admin("GET", `/issuing/cards/${cardId}`)).card.availableBalance as string;
  const txns = (cardId: string) =>
    api.ok(queryTxnList, { cardId, pageNum: 1, pageSize: 100 }).then((p) => p.records);
  const auth = (body: Record<string, unknown>) =>
    api.admin("POST", "/issuing/transactions", body).then((a) => a.transaction);
  const act = (txnOrderNo: string, action: string, body: Record<string, unknown> = {}) =>
    api.admin("POST", `/issuing/transactions/${txnOrderNo}/${action}`, body);

  it("authorizes (P, hold), clears later for another amount (S), refunds (P → S)", async () => {
    const cardId = await newCard();
    const a = await auth({ cardId, amount: "25.00" });
    expect(a).toMatchObject({
      txnType: "AUTHORIZATION",
      txnStatus: "P",
      authMessageDesc: "Approved",
    });
    expect(a.authorizationCode).toMatch(/^[0-9A-Z]{6}$/);
    expect(await balanceOf(cardId)).toBe("475.00");

    await api.admin("POST", "/clock/advance", { ms: DAY });
    const cleared = await act(a.txnOrderNo, "clear", { amount: "27.50" });
    expect(cleared.transaction).toMatchObject({ txnStatus: "S", settleTime: TEST_NOW + DAY });
    expect(cleared.created).toMatchObject({
      txnType: "CLEARING",
      txnStatus: "S",
      originTxnOrderNo: a.txnOrderNo,
      authorizationCode: a.authorizationCode,
      authTime: TEST_NOW,
      transactionTime: TEST_NOW + DAY,
      cardAmount: "27.50",
      settleAmount: "27.50",
      settleCurrency: "USD",
    });
    // A US merchant on a USD card issued in the US: no fee of any kind.
    expect(cleared.created.exchangeFee).toBeUndefined();
    expect(cleared.created.crossBorderFee).toBeUndefined();
    expect(await balanceOf(cardId)).toBe("472.50");

    const refunded = await act(cleared.created.txnOrderNo, "refund", { amount: "10.00" });
    expect(refunded.created).toMatchObject({
      txnType: "REFUND",
      txnStatus: "P",
      originTxnOrderNo: a.txnOrderNo,
      originTxnOrderNoForRefund: cleared.created.txnOrderNo,
    });
    expect(await balanceOf(cardId)).toBe("472.50");
    await act(refunded.created.txnOrderNo, "settle");
    expect(await balanceOf(cardId)).toBe("482.50");

    // The authorization kept its place when it changed status; times order the list.
    const list = await txns(cardId);
    expect(list.map((t) => `${t.txnType}:${t.txnStatus}`)).toEqual([
      "AUTHORIZATION:S",
      "CLEARING:S",
      "REFUND:S",
    ]);
    const events = (await sandbox.admin.deliveries())
      .filter((d) => d.eventType === "issuing.cardTransactionEvent")
      .map((d) => v.parse(cardTransactionEvent.decode, parseJson(d.body)).data)
      .filter((e) => e.cardId === cardId);
    expect(events.map((e) => `${e.txnType}:${e.txnStatus}`)).toEqual([
      "AUTHORIZATION:P",
      "CLEARING:S",
      "AUTHORIZATION:S",
      "REFUND:P",
      "REFUND:S",
    ]);
  });

  it("converts foreign currencies exactly and charges exchange and cross-border fees", async () => {
    const cardId = await newCard();
    const eur = await auth({
      cardId,
      amount: "100.00",
      currency: "EUR",
      merchantIndex: byName("ZALANDO SE"),
    });
    expect(eur).toMatchObject({
      transactionAmount: "100.00",
      transactionCurrency: "EUR",
      cardAmount: "108.50",
      cardCurrency: "USD",
    });
    const { created } = await act(eur.txnOrderNo, "clear");
    expect(created).toMatchObject({
      cardAmount: "108.50",
      exchangeFee: "2.17",
      exchangeFeeCurrency: "USD",
      crossBorderFee: "0.87",
      crossBorderFeeCurrency: "USD",
      merchantCountryCode: "DE",
    });
    expect(created.transactionFee).toBeUndefined();
    expect(await balanceOf(cardId)).toBe("388.46");

    const jpy = await auth({
      cardId,
      amount: "1500",
      currency: "JPY",
      merchantIndex: byName("UNIQLO GINZA"),
    });
    expect(jpy).toMatchObject({ transactionAmount: "1500", cardAmount: "10.05" });
    const atm = await auth({ cardId, amount: "40.00", merchantIndex: byName("ATM CHASE 0042") });
    const withdrawal = await act(atm.txnOrderNo, "clear");
    expect(withdrawal.created).toMatchObject({
      transactionFee: "2.00",
      transactionFeeCurrency: "USD",
    });
  });

  it("declines without a hold, and verifies with amount 0", async () => {
    const cardId = await newCard("20.00");
    const tooMuch = await auth({ cardId, amount: "20.01" });
    expect(tooMuch).toMatchObject({ txnStatus: "F", authMessageDesc: "Insufficient funds" });
    expect(tooMuch.authorizationCode).toBeUndefined();
    const told = await auth({ cardId, amount: "1.00", decline: "Suspected fraud" });
    expect(told).toMatchObject({ txnStatus: "F", authMessageDesc: "Suspected fraud" });
    const check = await auth({ cardId, type: "VERIFICATION" });
    expect(check).toMatchObject({
      txnType: "VERIFICATION",
      txnStatus: "S",
      transactionAmount: "0.00",
      cardAmount: "0.00",
    });
    expect(await balanceOf(cardId)).toBe("20.00");
  });

  it("clears in parts, reverses in parts, and refuses what no longer fits", async () => {
    const cardId = await newCard();
    const a = await auth({ cardId, amount: "90.00" });
    await act(a.txnOrderNo, "clear", { amount: "30.00", final: false });
    const second = await act(a.txnOrderNo, "clear", { amount: "40.00", final: false });
    expect(second.transaction.txnStatus).toBe("P");
    expect(await balanceOf(cardId)).toBe("410.00");
    await act(a.txnOrderNo, "clear", { amount: "10.00" });
    // The last clearing releases the 10.00 never cleared.
    expect(await balanceOf(cardId)).toBe("420.00");

    const b = await auth({ cardId, amount: "50.00" });
    const part = await act(b.txnOrderNo, "reverse", { amount: "20.00" });
    expect(part.created).toMatchObject({ txnType: "REVERSAL", cardAmount: "20.00" });
    expect(part.transaction.txnStatus).toBe("P");
    const rest = await act(b.txnOrderNo, "reverse");
    expect(rest.created.cardAmount).toBe("30.00");
    expect(rest.transaction.txnStatus).toBe("S");
    expect(await balanceOf(cardId)).toBe("420.00");

    await expect(act(b.txnOrderNo, "reverse")).rejects.toMatchObject({ status: 409 });
    const c = await auth({ cardId, amount: "5.00" });
    const { created } = await act(c.txnOrderNo, "clear");
    await expect(act(created.txnOrderNo, "refund", { amount: "5.01" })).rejects.toMatchObject({
      status: 409,
    });
    await expect(act(c.txnOrderNo, "clear", { at: TEST_NOW - 1 })).rejects.toMatchObject({
      status: 400,
    });
    const d = await auth({ cardId, amount: "7.00" });
    const expired = await act(d.txnOrderNo, "fail");
    expect(expired.transaction).toMatchObject({ txnStatus: "F", authMessageDesc: "Expired" });
    expect(await balanceOf(cardId)).toBe("415.00");
  });
});
