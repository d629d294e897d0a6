// `sync --from [--to]`: an explicit range never reads or commits past now, and moves the
// watermark only when it joins what is already committed (with no watermark yet: when it starts
// at RECONCILER_START); otherwise later runs would start past records nobody read, and report ok.
// A fake provider and a fake clock on PGlite.
import type { Page } from "@merchantkit/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../config/load-config";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { advanceWatermark, readWatermark } from "../store/watermarks";
import { openTestDatabase } from "../testing/databases";
import { cardTxn } from "../testing/records";
import { runSync } from "./run-sync";
import type { SyncContext, SyncOptions } from "./sync-types";

type Txn = ReturnType<typeof cardTxn>;

const H = 3_600_000;
const D = 24 * H;
const T0 = Date.UTC(2030, 0, 10, 12, 0, 0);
const STREAMS: SyncOptions["streams"] = ["card_transactions"];

/** Card transactions only, from `records`, filtered like the service (inclusive seconds). */
function fakeContext(db: Db, records: Txn[], start: string, lines: string[]): SyncContext {
  const list = (p: { startTime: number; endTime: number; pageSize: number }) => ({
    async *pages(): AsyncGenerator<Page<Txn>> {
      const hits = records.filter(
        (r) =>
          (r.transactionTime as number) >= p.startTime * 1000 &&
          (r.transactionTime as number) <= p.endTime * 1000 + 999,
      );
      yield {
        records: hits,
        pageNum: 1,
        pageSize: p.pageSize,
        totalRecords: hits.length,
        totalPages: 1,
        hasMore: false,
      };
    },
  });
  const config = loadConfig({
    MERCHANTKIT_ENVIRONMENT: "sandbox",
    ISSUING_API_KEY: "k",
    ACCOUNT_API_KEY: "k",
    RECONCILER_START: start,
    RECONCILER_LOOKBACK: "3d",
    RECONCILER_WINDOW: "1d",
  });
  return {
    db,
    config,
    issuing: { transactions: { list } } as never,
    account: {} as never,
    payout: {} as never,
    log: (line) => lines.push(line),
  };
}

/** A fresh PGlite database with the clock at T0, for one test. */
async function setUp(records: Txn[], start: string) {
  const database = await openTestDatabase("pglite");
  vi.useFakeTimers({ toFake: ["Date"], now: T0 });
  const lines: string[] = [];
  const ctx = fakeContext(database.db, records, start, lines);
  return {
    db: database.db,
    lines,
    sync: (opts: SyncOptions = {}) => runSync(ctx, { streams: STREAMS, ...opts }),
    watermark: () => readWatermark(database.db, "card_transactions"),
    stored: async (txn: Txn) => {
      const rows = await queryText<{ n: string }>(
        database.db,
        `SELECT count(*) AS n FROM card_transactions WHERE txn_order_no = '${txn.txnOrderNo}'`,
      );
      return Number(rows[0]?.n);
    },
    dispose: () => database.dispose(),
  };
}

describe("sync with an explicit range", () => {
  afterEach(() => vi.useRealTimers());

  it("stops at now, so records that happen after a run whose --to lay ahead are read later", async () => {
    const records = [cardTxn({ transactionTime: T0 - H })];
    const t = await setUp(records, "2d");
    try {
      expect((await t.sync()).outcome).toBe("ok");
      // "Sync this month": starts before the watermark, ends at the end of the month.
      const month = await t.sync({
        from: new Date(Date.UTC(2030, 0, 1)),
        to: new Date(Date.UTC(2030, 1, 1)),
      });
      expect(month.outcome).toBe("ok");
      expect(await t.watermark()).toEqual(new Date(T0));
      // A range wholly ahead of now reads nothing and leaves the watermark where it is.
      const ahead = await t.sync({ from: new Date(T0 + D), to: new Date(T0 + 2 * D) });
      expect(ahead.streams.card_transactions?.windows).toBe(0);
      expect(await t.watermark()).toEqual(new Date(T0));

      // A transaction 12 h after T0; a plain run a day later reads it.
      const late = cardTxn({ transactionTime: T0 + 12 * H });
      records.push(late);
      vi.setSystemTime(T0 + D);
      expect((await t.sync()).outcome).toBe("ok");
      expect(await t.stored(late)).toBe(1);
    } finally {
      await t.dispose();
    }
  });

  it("with no watermark yet, a range starting after RECONCILER_START leaves it unset", async () => {
    // Inside the first regular run's range (30 d) and older than the 3-day lookback.
    const early = cardTxn({ transactionTime: T0 - 10 * D });
    const t = await setUp([early], "30d");
    try {
      // Somebody looks at the last hour first.
      expect((await t.sync({ from: new Date(T0 - H), to: new Date(T0) })).outcome).toBe("ok");
      expect(await t.watermark()).toBeNull();
      expect((await t.sync()).outcome).toBe("ok");
      expect(await t.stored(early)).toBe(1);
      expect(await t.watermark()).toEqual(new Date(T0));
    } finally {
      await t.dispose();
    }
  });

  it("with no watermark yet, a range from RECONCILER_START or before moves it to the range's end", async () => {
    const t = await setUp([cardTxn({ transactionTime: T0 - 10 * D })], "30d");
    try {
      await t.sync({ from: new Date(T0 - 31 * D), to: new Date(T0 - 2 * D) });
      expect(await t.watermark()).toEqual(new Date(T0 - 2 * D));
    } finally {
      await t.dispose();
    }
  });

  it("warns about a watermark an earlier run moved ahead of now", async () => {
    const t = await setUp([], "2d");
    try {
      await advanceWatermark(t.db, "card_transactions", new Date(T0 + 30 * D));
      await t.sync();
      const warned = t.lines.map((l) => JSON.parse(l)).find((l) => l.level === "warn");
      expect(warned).toMatchObject({
        msg: "watermark is ahead of now; records up to it may be unread",
        stream: "card_transactions",
      });
    } finally {
      await t.dispose();
    }
  });
});
