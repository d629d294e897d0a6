import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type IssuingClient, isRequestValidationError } from "./index";
import { type TestBed, testBed } from "./testing/sandbox";

let bed: TestBed;

beforeAll(async () => {
  bed = await testBed();
});
afterAll(() => bed.close());

type Lister = (
  client: IssuingClient,
  params: object,
) => AsyncIterable<unknown> & PromiseLike<unknown>;
const lists: [string, Lister][] = [
  ["operateRecords.list", (c, p) => c.operateRecords.list(p)],
  ["transactions.list", (c, p) => c.transactions.list(p)],
  ["threeDs.list", (c, p) => c.threeDs.list(p)],
];

const refused: [object, string][] = [
  [{ pageSize: 0 }, "pageSize"],
  [{ pageSize: 101 }, "pageSize"],
  [{ pageSize: 2.5 }, "pageSize"],
  [{ pageNum: 0 }, "pageNum"],
  [{ pageNum: -1 }, "pageNum"],
  [{ startTime: 1_750_000_100, endTime: 1_750_000_000 }, "endTime"],
  [{ startTime: new Date(1_750_000_001_000), endTime: new Date(1_750_000_000_999) }, "endTime"],
  [{ startTime: -1 }, "startTime"],
  [{ startTime: 1_750_000_000.5 }, "startTime"],
  // Milliseconds where seconds belong (Date.now()) found nothing without a word.
  [{ startTime: 1_750_000_000_000 }, "startTime"],
  // A Date before 1970 passed the local check and was refused by the service.
  [{ startTime: new Date(-1_500) }, "startTime"],
];

/** Values that fail every branch of the Date | seconds union. */
const notATime: [object, string][] = [
  [{ startTime: new Date(Number.NaN) }, "startTime"],
  [{ endTime: "2026-06-22" }, "endTime"],
];

describe.each(lists)("%s limits", (_name, list) => {
  it("refuses pageSize 0 / 101, pageNum 0 and a bad time window before sending", async () => {
    await bed.sandbox.admin.clearRequests();
    for (const [params, field] of refused) {
      const awaited = await Promise.resolve(list(bed.issuing, params)).catch((e: unknown) => e);
      expect(isRequestValidationError(awaited), JSON.stringify(params)).toBe(true);
      expect(awaited).toMatchObject({ field });
      const iterated = await (async () => {
        for await (const _ of list(bed.issuing, params)) return "iterated";
      })().catch((e: unknown) => e);
      expect(isRequestValidationError(iterated)).toBe(true);
    }
    expect(await bed.sandbox.admin.requests()).toHaveLength(0);
  });

  it("refuses an invalid Date or a date string before sending", async () => {
    await bed.sandbox.admin.clearRequests();
    for (const [params] of notATime) {
      const error = await Promise.resolve(list(bed.issuing, params)).catch((e: unknown) => e);
      expect(isRequestValidationError(error)).toBe(true);
    }
    expect(await bed.sandbox.admin.requests()).toHaveLength(0);
  });

  it("takes pageSize 1 and 100, pageNum 1, and a window of one second", async () => {
    await bed.sandbox.admin.clearRequests();
    const ok = [
      { pageSize: 1 },
      { pageSize: 100, pageNum: 1 },
      { startTime: 1_750_000_000, endTime: new Date(1_750_000_000_999) },
      {},
    ];
    for (const params of ok) await list(bed.issuing, params);
    const sent = await bed.sandbox.admin.requests();
    expect(sent.map((r) => r.httpStatus)).toEqual([200, 200, 200, 200]);
    expect(sent.map((r) => (r.body as { pageSize: number }).pageSize)).toEqual([1, 100, 100, 100]);
  });
});

// Known core bug, kept visible: toValidationIssues (packages/core/src/errors/valibot-issues.ts)
// flattens a union's nested issues without the union's own path, so the message says "must
// be a valid Date" without naming startTime/endTime. This test starts passing once fixed.
it("names the field of an invalid Date", async () => {
  for (const [params, field] of notATime) {
    const error = await Promise.resolve(bed.issuing.transactions.list(params)).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ field });
  }
});
