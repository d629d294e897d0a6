// Waiting for an operation: freeze, then unfreeze only once the freeze is final (the service
// refuses an unfreeze while the freeze is still P). The sandbox's clock runs, so operations
// settle by themselves after the settle delay.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IssuingClient, isConnectionError, isWaitTimeoutError } from "./index";
import { PRODUCTS, type TestBed, testBed } from "./testing/sandbox";

let fast: TestBed;
let slow: TestBed;
beforeAll(async () => {
  [fast, slow] = await Promise.all([
    testBed({ settleDelayMs: 300 }),
    testBed({ settleDelayMs: 60_000 }),
  ]);
});
afterAll(async () => {
  await fast?.close();
  await slow?.close();
});

async function newCard(bed: TestBed, n: number) {
  const holder = await bed.issuing.cardholders.create({
    firstName: "Wait",
    lastName: `For${n}`,
    email: `wait-for-${n}@example.com`,
  });
  const { cardId } = await bed.issuing.cards.create({
    cardholderId: holder.cardholderId,
    productId: PRODUCTS.USD,
    amount: "100.00",
  });
  // card/createCard answers the card id; its CREATE operation is the card's first record.
  const [create] = await bed.issuing.operateRecords.list({ cardId }).toArray({ limit: 10 });
  return { cardId, operateRecordId: create?.operateRecordId as string };
}

describe("operateRecords.waitFor", () => {
  it("answers the final record, so the next operation on the card is accepted", async () => {
    const { cardId, operateRecordId } = await newCard(fast, 1);
    const created = await fast.issuing.operateRecords.waitFor(operateRecordId, {
      cardId,
      intervalMs: 50,
    });
    expect(created).toMatchObject({ operateRecordId, type: "CREATE", status: "S" });
    const freeze = await fast.issuing.cards.freeze({ cardId });
    expect(
      (
        await fast.issuing.operateRecords.waitFor(freeze.operateRecordId, {
          cardId,
          intervalMs: 50,
        })
      ).status,
    ).toBe("S");
    const unfreeze = await fast.issuing.cards.unfreeze({ cardId });
    const done = await fast.issuing.operateRecords.waitFor(unfreeze.operateRecordId, {
      intervalMs: 50,
    });
    expect(done).toMatchObject({ type: "UNFREEZE", status: "S", cardId });
  });

  it("gives up after timeoutMs with a WaitTimeoutError naming the status last seen", async () => {
    const { cardId, operateRecordId } = await newCard(slow, 2);
    const error = await slow.issuing.operateRecords
      .waitFor(operateRecordId, { cardId, intervalMs: 20, timeoutMs: 200 })
      .catch((e: unknown) => e);
    expect(isWaitTimeoutError(error)).toBe(true);
    expect(isConnectionError(error)).toBe(false);
    expect(error).toMatchObject({ lastState: "P", timeoutMs: 200 });
    expect(String((error as Error).message)).toContain(`Operation ${operateRecordId} is still P`);
  });

  it("gives up at timeoutMs even in the middle of paging a long history (no cardId given)", async () => {
    // A service whose list is 1,000 pages long, 10 ms a page, through a fetch that ignores the
    // abort signal: before, the wait read every page (10 s) before looking at its deadline.
    const PAGES = 1_000;
    let requests = 0;
    const service: typeof fetch = async (input, init) => {
      requests++;
      const { pageNum, pageSize } = (await new Request(input, init).json()) as {
        pageNum: number;
        pageSize: number;
      };
      await new Promise((r) => setTimeout(r, 10));
      const records = Array.from(
        { length: pageSize },
        (_, i) =>
          `{"operateRecordId":${1953712585351400000n + BigInt((pageNum - 1) * pageSize + i)},"cardId":1,"clientRequestId":"c","type":"DEPOSIT","status":"S"}`,
      );
      return new Response(
        `{"respCode":"20000","respMsg":"ok","data":{"totalRecords":${PAGES * pageSize},"pageSize":${pageSize},"pageNum":${pageNum},"current":${pageNum},"totalPages":${PAGES},"records":[${records.join(",")}]}}`,
      );
    };
    const client = new IssuingClient({
      environment: { origin: "http://issuing.test" },
      apiKey: "k",
      fetch: service,
    });
    const started = Date.now();
    const error = await client.operateRecords
      .waitFor("1", { timeoutMs: 200, intervalMs: 50 })
      .catch((e: unknown) => e);
    expect(isWaitTimeoutError(error)).toBe(true);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(requests).toBeLessThan(PAGES / 4);
  });

  it("stops when its signal aborts", async () => {
    const { cardId, operateRecordId } = await newCard(slow, 3);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("stop waiting")), 100);
    await expect(
      slow.issuing.operateRecords.waitFor(operateRecordId, {
        cardId,
        intervalMs: 20,
        signal: controller.signal,
      }),
    ).rejects.toThrow();
    expect(controller.signal.aborted).toBe(true);
  });
});
