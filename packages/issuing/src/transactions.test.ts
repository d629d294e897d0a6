import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type CardTransaction, isRequestValidationError } from "./index";
import { type TestBed, testBed } from "./testing/sandbox";

/** The clock the sandbox is frozen at; cards are made then, transactions a minute on. */
const T0 = Date.UTC(2026, 5, 22, 10, 0, 0);
const key = (t: CardTransaction) => `${t.txnType}:${t.txnOrderNo}`;

let bed: TestBed;
let nextAt = T0 + 60_000;
/** Strictly increasing transaction times, so the list's order is the order of creation. */
const at = () => (nextAt += 1_000);

async function newCard(): Promise<string> {
  const { card } = await bed.admin("POST", "/issuing/cards", { balance: "20000.00" });
  return card.cardId as string;
}

async function authorize(cardId: string, amount = "10.00", extra = {}): Promise<CardTransaction> {
  const body = { cardId, amount, at: at(), ...extra };
  return (await bed.admin("POST", "/issuing/transactions", body)).transaction;
}

async function act(txnOrderNo: string, action: string, body: object = {}) {
  return bed.admin("POST", `/issuing/transactions/${txnOrderNo}/${action}`, { at: at(), ...body });
}

beforeAll(async () => {
  bed = await testBed();
  await bed.sandbox.admin.freezeClock(T0);
});
afterAll(() => bed.close());
beforeEach(() => bed.sandbox.admin.clearRequests());

describe("transactions.list paging", () => {
  it("walks ≥ 3 pages with no skip and no repeat while new records keep arriving", async () => {
    const cardId = await newCard();
    const auths: CardTransaction[] = [];
    for (let i = 0; i < 25; i++) auths.push(await authorize(cardId, `${10 + i}.00`));

    const seen: CardTransaction[] = [];
    for await (const txn of bed.issuing.transactions.list({ cardId, pageSize: 10 })) {
      seen.push(txn);
      // Between page fetches the card network moves on: a clearing and a reversal of
      // authorizations already seen, and a new authorization.
      if (seen.length === 10 || seen.length === 20) {
        const k = seen.length / 10;
        await act(auths[k]?.txnOrderNo as string, "clear");
        await act(auths[k + 5]?.txnOrderNo as string, "reverse", { amount: "1.00" });
        await authorize(cardId, "99.00");
      }
    }

    const truth = await bed.issuing.transactions.list({ cardId }).toArray({ limit: 1_000 });
    expect(truth).toHaveLength(31);
    expect(seen.map(key)).toEqual(truth.map(key));
    expect(new Set(seen.map(key)).size).toBe(seen.length);
    const pages = (await bed.sent("/queryTxnList")).filter((r) => r.body.pageSize === 10);
    expect(pages.map((r) => r.body.pageNum)).toEqual([1, 2, 3, 4]);
    expect(seen.filter((t) => t.txnType === "CLEARING")).toHaveLength(2);
    expect(seen.filter((t) => t.txnType === "REVERSAL")).toHaveLength(2);
  });

  it("awaits one page, and bounds toArray", async () => {
    const cardId = await newCard();
    for (let i = 0; i < 23; i++) await authorize(cardId);
    await bed.sandbox.admin.clearRequests();

    const page = await bed.issuing.transactions.list({ cardId, pageSize: 10 });
    expect(page).toMatchObject({ pageNum: 1, pageSize: 10, totalRecords: 23, totalPages: 3 });
    expect(page.records).toHaveLength(10);
    expect(page.hasMore).toBe(true);
    expect(await bed.sent("/queryTxnList")).toHaveLength(1);

    const fifteen = await bed.issuing.transactions
      .list({ cardId, pageSize: 10 })
      .toArray({ limit: 15 });
    expect(fifteen.map(key)).toEqual(
      [
        ...page.records,
        ...(await bed.issuing.transactions.list({ cardId, pageSize: 10, pageNum: 2 })).records,
      ]
        .slice(0, 15)
        .map(key),
    );

    const sizes: number[] = [];
    for await (const p of bed.issuing.transactions
      .list({ cardId, pageSize: 10, pageNum: 2 })
      .pages()) {
      sizes.push(p.records.length);
    }
    expect(sizes).toEqual([10, 3]);

    for (const limit of [0, 10_001, 1.5]) {
      const error = await bed.issuing.transactions
        .list({ cardId })
        .toArray({ limit })
        .catch((e: unknown) => e);
      expect(isRequestValidationError(error)).toBe(true);
    }
  });
});

describe("a card transaction's lifecycle through transactions.list", () => {
  it("authorization P → cleared S, a refund P → S, a decline F, with ms times", async () => {
    const cardId = await newCard();
    const auth = await authorize(cardId, "100.00", { merchantIndex: 1 });
    const authAt = nextAt;
    const byNo = async (txnOrderNo: string) =>
      (await bed.issuing.transactions.list({ cardId }).toArray({ limit: 100 })).find(
        (t) => t.txnOrderNo === txnOrderNo,
      );

    expect(await byNo(auth.txnOrderNo)).toMatchObject({
      txnType: "AUTHORIZATION",
      txnStatus: "P",
      cardId,
      transactionAmount: "100.00",
      authMessageDesc: "Approved",
    });
    const listed = (await byNo(auth.txnOrderNo)) as CardTransaction;
    expect(new Date(listed.transactionTime as number).toISOString()).toBe(
      new Date(authAt).toISOString(),
    );
    expect(listed.authTime).toBe(authAt);

    const { created: clearing } = await act(auth.txnOrderNo, "clear");
    expect(await byNo(auth.txnOrderNo)).toMatchObject({ txnStatus: "S", settleTime: nextAt });
    expect(await byNo(clearing.txnOrderNo)).toMatchObject({
      txnType: "CLEARING",
      txnStatus: "S",
      originTxnOrderNo: auth.txnOrderNo,
      authTime: authAt,
    });

    const { created: refund } = await act(clearing.txnOrderNo, "refund", { amount: "40.00" });
    expect(await byNo(refund.txnOrderNo)).toMatchObject({
      txnType: "REFUND",
      txnStatus: "P",
      originTxnOrderNoForRefund: clearing.txnOrderNo,
    });
    await act(refund.txnOrderNo, "settle");
    expect((await byNo(refund.txnOrderNo))?.txnStatus).toBe("S");

    const declined = await authorize(cardId, "5.00", { decline: "Do not honor" });
    expect(await byNo(declined.txnOrderNo)).toMatchObject({
      txnStatus: "F",
      authMessageDesc: "Do not honor",
    });

    const settled = await bed.issuing.transactions
      .list({ cardId, txnStatus: "S" })
      .toArray({ limit: 100 });
    expect(settled.map((t) => t.txnType)).toEqual(["AUTHORIZATION", "CLEARING", "REFUND"]);
    const refunds = await bed.issuing.transactions.list({ cardId, txnType: "REFUND" });
    expect(refunds.records.map((t) => t.txnOrderNo)).toEqual([refund.txnOrderNo]);
  });

  it("filters a window given as a Date or epoch seconds, sent as UTC seconds", async () => {
    const cardId = await newCard();
    const times: number[] = [];
    for (let i = 0; i < 6; i++) {
      await authorize(cardId);
      times.push(nextAt);
    }
    await bed.sandbox.admin.clearRequests();
    const from = new Date((times[1] as number) + 400);
    const to = Math.floor((times[3] as number) / 1000);
    const found = await bed.issuing.transactions
      .list({ cardId, startTime: from, endTime: to })
      .toArray({ limit: 100 });
    expect(found.map((t) => t.transactionTime)).toEqual(times.slice(1, 4));
    const [sent] = await bed.sent("/queryTxnList");
    expect(sent?.body).toMatchObject({
      startTime: Math.floor((times[1] as number) / 1000),
      endTime: to,
    });
  });
});
