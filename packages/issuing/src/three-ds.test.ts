import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isRequestValidationError } from "./index";
import { type TestBed, testBed } from "./testing/sandbox";

const T0 = Date.UTC(2026, 5, 22, 10, 0, 0);
const CODE = "482913";

let bed: TestBed;
let cardId: string;

beforeAll(async () => {
  bed = await testBed();
  await bed.sandbox.admin.freezeClock(T0);
  ({
    card: { cardId },
  } = await bed.admin("POST", "/issuing/cards", {}));
  for (let i = 0; i < 3; i++) {
    await bed.admin("POST", "/issuing/3ds", {
      cardId,
      txnOrderNo: `T3DS-${i}`,
      amount: "12.30",
      card3dsValues: i === 1 ? CODE : `11111${i}`,
      at: T0 + 60_000 * (i + 1),
    });
  }
});
afterAll(() => bed.close());
beforeEach(() => bed.sandbox.admin.clearRequests());

describe("threeDs.list", () => {
  it("lists deliveries by card, txnOrderNo and sendTime window, with ms times", async () => {
    const all = await bed.issuing.threeDs.list({ cardId }).toArray({ limit: 10 });
    expect(all.map((d) => d.txnOrderNo)).toEqual(["T3DS-0", "T3DS-1", "T3DS-2"]);
    expect(all[1]).toMatchObject({
      cardId,
      type: "OTP",
      sendMethod: "WEBHOOK",
      sendStatus: "S",
      sendTime: T0 + 120_000,
      amount: "12.30",
      card3dsValues: CODE,
    });
    const one = await bed.issuing.threeDs.list({ txnOrderNo: "T3DS-2" });
    expect(one.records.map((d) => d.txnOrderNo)).toEqual(["T3DS-2"]);
    const window = await bed.issuing.threeDs.list({
      cardId,
      startTime: new Date(T0 + 60_000),
      endTime: (T0 + 120_000) / 1000,
    });
    expect(window.records.map((d) => d.txnOrderNo)).toEqual(["T3DS-0", "T3DS-1"]);

    // This endpoint takes cardId as a JSON string, unlike the others.
    const sent = await bed.sent("/card/query3dsNotify");
    expect(typeof sent[0]?.body.cardId).toBe("string");
  });

  it("refuses a txnOrderNo or cardId over 64 characters before sending", async () => {
    for (const params of [{ txnOrderNo: "T".repeat(65) }, { cardId: "1".repeat(65) }]) {
      const error = await Promise.resolve(bed.issuing.threeDs.list(params)).catch(
        (e: unknown) => e,
      );
      expect(isRequestValidationError(error)).toBe(true);
      expect(error).toMatchObject({ field: Object.keys(params)[0] });
    }
    expect(await bed.sandbox.admin.requests()).toHaveLength(0);
    const atLimit = await bed.issuing.threeDs.list({ txnOrderNo: "T".repeat(64) });
    expect(atLimit.records).toEqual([]);
  });

  it("never puts card3dsValues into logs or events, even with bodies", async () => {
    const lines: string[] = [];
    const record = (message: string, fields: Record<string, unknown>) => {
      lines.push(`${message} ${JSON.stringify(fields)}`);
    };
    const events: unknown[] = [];
    const logged = bed.client({
      includeBodies: true,
      logger: { debug: record, info: record, warn: record, error: record },
      hooks: {
        onRequest: (e) => events.push(e),
        onResponse: (e) => events.push(e),
      },
    });
    const page = await logged.threeDs.list({ cardId });
    expect(page.records.map((d) => d.card3dsValues)).toContain(CODE);

    const text = `${lines.join("\n")}\n${JSON.stringify(events)}`;
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(text).toContain("T3DS-1");
    expect(text).toContain('"card3dsValues":"[REDACTED]"');
    expect(text).not.toContain(CODE);
    expect(text).not.toContain("sandbox-issuing-api-key");
  });
});
