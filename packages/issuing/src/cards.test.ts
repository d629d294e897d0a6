import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type CardOperateRecord,
  isDuplicateError,
  isInsufficientBalanceError,
  isInvalidRequestError,
  isNotFoundError,
  isRequestValidationError,
} from "./index";
import { PREFIX, PRODUCTS, type TestBed, testBed } from "./testing/sandbox";

const SETTLE_MS = 2_000;
let bed: TestBed;
let n = 0;

const settle = () => bed.sandbox.admin.advanceClock(SETTLE_MS);
const records = (cardId: string) =>
  bed.issuing.operateRecords.list({ cardId }).toArray({ limit: 100 });
const cardState = async (cardId: string) =>
  (await bed.admin("GET", `/issuing/cards/${cardId}`)).card;

async function newHolder(): Promise<string> {
  const holder = await bed.issuing.cardholders.create({
    firstName: "Card",
    lastName: `Holder${++n}`,
    email: `card-holder-${n}@example.com`,
  });
  return holder.cardholderId;
}

/** A card whose CREATE has settled, with `balance` on it. */
async function fundedCard(currency: keyof typeof PRODUCTS = "USD", balance = "500.00") {
  const { cardId } = await bed.issuing.cards.create({
    cardholderId: await newHolder(),
    productId: PRODUCTS[currency],
    amount: balance,
  });
  await settle();
  return cardId;
}

beforeAll(async () => {
  bed = await testBed({ settleDelayMs: SETTLE_MS });
});
afterAll(() => bed.close());
beforeEach(async () => {
  await bed.sandbox.admin.clearFaults();
  await bed.sandbox.admin.clearRequests();
});

describe("a card's whole life", () => {
  it("create cardholder → create → deposit → freeze → unfreeze → return → terminate, each S", async () => {
    const cardholderId = await newHolder();
    const statusOf = async (cardId: string, operateRecordId: string) =>
      (await records(cardId)).find((r) => r.operateRecordId === operateRecordId)?.status;

    const { cardId } = await bed.issuing.cards.create({
      cardholderId,
      productId: PRODUCTS.USD,
      amount: "100.00",
    });
    expect(BigInt(cardId) > 2n ** 53n).toBe(true);
    const [create] = await records(cardId);
    expect(create).toMatchObject({ type: "CREATE", status: "P", amount: "100.00" });
    await settle();
    expect(await statusOf(cardId, create?.operateRecordId as string)).toBe("S");

    const steps: [string, () => PromiseLike<{ operateRecordId: string }>, string][] = [
      ["DEPOSIT", () => bed.issuing.cards.deposit({ cardId, amount: "50.00" }), "ACTIVE"],
      ["FREEZE", () => bed.issuing.cards.freeze({ cardId }), "FROZEN"],
      ["UNFREEZE", () => bed.issuing.cards.unfreeze({ cardId }), "ACTIVE"],
      ["RETURN", () => bed.issuing.cards.returnBalance({ cardId, amount: "30.00" }), "ACTIVE"],
      ["TERMINATE", () => bed.issuing.cards.terminate({ cardId }), "TERMINATED"],
    ];
    for (const [type, step, cardStatus] of steps) {
      const { operateRecordId } = await step();
      expect(await statusOf(cardId, operateRecordId)).toBe("P");
      await settle();
      expect(await statusOf(cardId, operateRecordId), type).toBe("S");
      expect((await cardState(cardId)).status).toBe(cardStatus);
    }

    const all = await records(cardId);
    expect(all.map((r) => [r.type, r.status])).toEqual([
      ["CREATE", "S"],
      ["DEPOSIT", "S"],
      ["FREEZE", "S"],
      ["UNFREEZE", "S"],
      ["RETURN", "S"],
      ["TERMINATE", "S"],
    ]);
    const byType = (type: string) => all.find((r) => r.type === type) as CardOperateRecord;
    expect(byType("DEPOSIT")).toMatchObject({
      amount: "50.00",
      currency: "USD",
      feeList: [{ feeType: "DEPOSIT", feeAmount: "0.75", feeCurrency: "USD" }],
    });
    // The whole remaining balance goes back at termination: 100 + 50 − 30.
    expect(byType("TERMINATE").amount).toBe("120.00");
    // Times in records are epoch ms.
    expect(new Date(byType("CREATE").operateTime as number).getTime()).toBeGreaterThan(
      Date.UTC(2026, 0, 1),
    );

    // freeze/unfreeze/terminate are card/operate with the method's type.
    const operate = await bed.sent("/card/operate");
    expect(operate.map((r) => r.body.type)).toEqual(["FREEZE", "UNFREEZE", "TERMINATE"]);
    expect(operate.every((r) => typeof r.body.clientRequestId === "string")).toBe(true);

    // Filters of the operate record list.
    const freezes = await bed.issuing.operateRecords
      .list({ cardId, type: "FREEZE" })
      .toArray({ limit: 10 });
    expect(freezes).toHaveLength(1);
    const byKey = await bed.issuing.operateRecords.list({
      clientRequestId: freezes[0]?.clientRequestId,
    });
    expect(byKey.records.map((r) => r.operateRecordId)).toEqual([freezes[0]?.operateRecordId]);
  });
});

describe("amounts", () => {
  it("refuses 0, 1.001, -1 and a JS number before anything is sent", async () => {
    const cardId = "1953712585351499776";
    const bad = ["0", "1.001", "-1", "0.00", "1e2", "", 5 as unknown as string];
    for (const amount of bad) {
      const calls = [
        bed.issuing.cards.create({ cardholderId: "1", productId: PRODUCTS.USD, amount }),
        bed.issuing.cards.deposit({ cardId, amount }),
        bed.issuing.cards.returnBalance({ cardId, amount }),
      ];
      for (const call of calls) {
        const error = await Promise.resolve(call).catch((e: unknown) => e);
        expect(isRequestValidationError(error), `amount ${String(amount)}`).toBe(true);
        expect(error).toMatchObject({ field: "amount" });
      }
    }
    expect(await bed.sandbox.admin.requests()).toHaveLength(0);
  });

  it("sends an amount as an exact JSON number", async () => {
    const cardId = await fundedCard();
    await bed.sandbox.admin.clearRequests();
    const raw: string[] = [];
    const recording = bed.client({
      // ky hands fetch a Request: its body is the exact text on the wire.
      fetch: async (input, init) => {
        raw.push(input instanceof Request ? await input.clone().text() : String(init?.body));
        return fetch(input, init);
      },
    });
    await recording.cards.deposit({ cardId, amount: "10.10" });
    expect(raw[0]).toContain('"amount":10.10');
    expect(raw[0]).toContain(`"cardId":${cardId}`);
  });
});

describe("business codes", () => {
  it("80007 merchant balance not enough → InsufficientBalanceError", async () => {
    const cardId = await fundedCard("HKD", "100.00");
    const { balances } = await bed.admin("GET", "/account/balances");
    const hkd = String(balances.HKD);
    await bed.admin("POST", "/account/postings", {
      direction: "debit",
      currency: "HKD",
      amount: hkd,
    });
    const error = await bed.issuing.cards
      .deposit({ cardId, amount: "100.00" })
      .catch((e: unknown) => e);
    expect(isInsufficientBalanceError(error)).toBe(true);
    expect(error).toMatchObject({ respCode: "80007", httpStatus: 200 });
  });

  it("80010 a clientRequestId reused with other params → DuplicateError; the same params replay", async () => {
    const cardId = await fundedCard();
    const first = await bed.issuing.cards.deposit({
      cardId,
      amount: "20.00",
      clientRequestId: "dep-1",
    });
    const again = await bed.issuing.cards.deposit({
      cardId,
      amount: "20.00",
      clientRequestId: "dep-1",
    });
    expect(again.operateRecordId).toBe(first.operateRecordId);
    const error = await bed.issuing.cards
      .deposit({ cardId, amount: "21.00" }, { idempotencyKey: "dep-1" })
      .catch((e: unknown) => e);
    expect(isDuplicateError(error)).toBe(true);
    expect(error).toMatchObject({ respCode: "80010", idempotencyKey: "dep-1" });
    const deposits = (await records(cardId)).filter((r) => r.type === "DEPOSIT");
    expect(deposits).toHaveLength(1);
  });

  it("80001 unknown cardholder and 81001 unknown card → NotFoundError", async () => {
    const holder = await bed.issuing.cards
      .create({ cardholderId: "1953712585351499776", productId: PRODUCTS.USD, amount: "10.00" })
      .catch((e: unknown) => e);
    expect(isNotFoundError(holder)).toBe(true);
    expect(holder).toMatchObject({ respCode: "80001" });
    const card = await bed.issuing.cards
      .freeze({ cardId: "1953712585351499776" })
      .catch((e: unknown) => e);
    expect(isNotFoundError(card)).toBe(true);
    expect(card).toMatchObject({ respCode: "81001" });
  });

  it("80009 below the product minimum and a card in the wrong state → InvalidRequestError", async () => {
    const cardId = await fundedCard();
    const small = await bed.issuing.cards
      .deposit({ cardId, amount: "0.50" })
      .catch((e: unknown) => e);
    expect(isInvalidRequestError(small)).toBe(true);
    expect(small).toMatchObject({ respCode: "80009" });
    const unfreeze = await bed.issuing.cards.unfreeze({ cardId }).catch((e: unknown) => e);
    expect(isInvalidRequestError(unfreeze)).toBe(true);
    expect(unfreeze).toMatchObject({ respCode: "40000" });
  });
});

describe("clientRequestId across retries", () => {
  it("a deposit whose answer is lost is retried with the same key: one effect", async () => {
    const cardId = await fundedCard();
    await bed.sandbox.admin.clearRequests();
    await bed.sandbox.admin.injectFault({
      path: `${PREFIX}/card/deposit`,
      kind: "http_status",
      status: 503,
      after: true,
      count: 1,
    });
    const { data, response } = await bed.issuing.cards
      .deposit({ cardId, amount: "25.00" })
      .withResponse();
    expect(response.attempts).toBe(2);

    const sent = await bed.sent("/card/deposit");
    expect(sent.map((r) => [r.httpStatus, r.replayed ?? false])).toEqual([
      [503, false],
      [200, true],
    ]);
    const keys = sent.map((r) => r.body.clientRequestId);
    expect(keys[0]).toBe(keys[1]);
    expect(response.idempotencyKey).toBe(keys[0]);

    const deposits = (await records(cardId)).filter((r) => r.type === "DEPOSIT");
    expect(deposits).toHaveLength(1);
    expect(deposits[0]).toMatchObject({
      operateRecordId: data.operateRecordId,
      clientRequestId: keys[0],
    });
  });

  it("a dropped connection on card creation makes one card, not two", async () => {
    const cardholderId = await newHolder();
    await bed.sandbox.admin.injectFault({
      path: `${PREFIX}/card/createCard`,
      kind: "reset",
      after: true,
      count: 1,
    });
    const { data, response } = await bed.issuing.cards
      .create({ cardholderId, productId: PRODUCTS.EUR, amount: "10.00" })
      .withResponse();
    expect(response.attempts).toBe(2);
    const { cards } = await bed.admin("GET", "/issuing/cards");
    const mine = (cards as { cardholderId: string; cardId: string }[]).filter(
      (c) => c.cardholderId === cardholderId,
    );
    expect(mine.map((c) => c.cardId)).toEqual([data.cardId]);
  });
});
