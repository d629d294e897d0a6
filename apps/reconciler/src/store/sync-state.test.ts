// The sync's coordination on PGlite and (with DATABASE_URL) a Postgres server: commitWindow's
// atomicity, watermarks, retry windows, runs, serviceIds, the stream lock and webhook dedupe.
import { isJsonNumber, type JsonNumber, parseJson } from "@merchantkit/core";
import { looksLikeCardNumber } from "@merchantkit/core/internal";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Database, Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { cardTransactions, webhookEvents } from "../db/schema";
import { type TestDatabase, testBackends } from "../testing/databases";
import { accountTxn, BIG_ID, cardTxn, nextId, operateRecord } from "../testing/records";
import { useTestDatabase } from "../testing/use-database";
import { storeWebhookEvent } from "../webhook-receiver/store-event";
import type { CardTransactionInput } from "./card-transactions";
import { commitWindow } from "./commit-window";
import { PostgresDedupeStore } from "./dedupe-store";
import { markServiceIdsFetched, rememberServiceIds, serviceIdsToFetch } from "./service-ids";
import { withStreamLock } from "./stream-lock";
import { finishRun, lastRuns, openStreamRun, recordRun } from "./sync-runs";
import {
  giveUpWindow,
  listWindows,
  markWindowFailed,
  takeWindowsToRetry,
  unreadWindows,
} from "./sync-windows";
import { readWatermark } from "./watermarks";

const at = (iso: string) => new Date(iso);

/** A fresh 64-bit id that passes the Luhn check, as a 19-digit card number would. */
function luhnId(): string {
  const base = nextId().slice(0, 18);
  for (let d = 0; d < 10; d++) if (looksLikeCardNumber(`${base}${d}`)) return `${base}${d}`;
  throw new Error("unreachable");
}

// Card numbers the provider's free text and unknown fields carry below.
const PANS = ["5555555555554444", "4111111111111111", "4242424242424242", "4012888888881881"];
const noPan = (text: string) => {
  for (const pan of PANS) expect(text.replace(/[ -]/g, "")).not.toContain(pan);
};

describe.each(testBackends())("sync state on %s", (kind) => {
  let database: TestDatabase;
  let db: Db;
  useTestDatabase(kind, (opened) => {
    database = opened;
    db = opened.db;
  });

  const stored = async (key: string) =>
    (await db.select().from(cardTransactions).where(eq(cardTransactions.txnOrderNo, key)))[0];

  it("commits a window's rows and its watermark together", async () => {
    const stream = `card_transactions_${nextId()}`;
    const txn = cardTxn();
    const op = operateRecord();
    const result = await commitWindow(db, {
      stream,
      records: { cardTransactions: [txn], operateRecords: [op] },
      watermark: at("2026-06-01T01:00:00Z"),
    });
    expect(result.counts).toEqual({ inserted: 2, updated: 0, unchanged: 0, skippedDowngrades: 0 });
    expect(result.watermark?.toISOString()).toBe("2026-06-01T01:00:00.000Z");
    expect(await readWatermark(db, stream)).toEqual(at("2026-06-01T01:00:00Z"));
    expect(await stored(txn.txnOrderNo)).toBeDefined();
  });

  /** Every row of a record's table and versions table as text, for a key. */
  const rowsText = async (table: string, keyColumn: string, key: string) => {
    const rows = await queryText<{ row: string }>(
      db,
      `SELECT t::text AS row FROM ${table} t WHERE ${keyColumn} = '${key}'
       UNION ALL SELECT v::text FROM ${table.replace(/s$/, "")}_versions v WHERE ${keyColumn} = '${key}'`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(2);
    return rows.map((r) => r.row).join("\n");
  };

  it("stores a synced record's card numbers masked in columns, raw and versions; its ids as they are", async () => {
    const stream = `card_transactions_${nextId()}`;
    const cardId = luhnId();
    const txn = cardTxn({
      cardId,
      merchantName: "SHOP pan 5555555555554444",
      extra: { note: "ref 4111 1111 1111 1111", items: [{ card3dsValues: "918273" }] },
    } as Partial<CardTransactionInput>);
    const op = operateRecord({ cardId, remark: "to 4242424242424242" });
    (op as Record<string, unknown>).detail = { text: "pan 4012888888881881" };
    const acnt = accountTxn({
      acntTxnId: luhnId(),
      serviceId: op.operateRecordId,
      externalOrderId: luhnId(),
      remark: "card 4111-1111-1111-1111",
    });
    const result = await commitWindow(db, {
      stream,
      records: { cardTransactions: [txn], operateRecords: [op], accountTransactions: [acnt] },
    });
    expect(result.counts).toMatchObject({ inserted: 3 });

    const [card] = await queryText<{ card_id: string; merchant_name: string; raw: string }>(
      db,
      `SELECT card_id, merchant_name, raw::text FROM card_transactions WHERE txn_order_no = '${txn.txnOrderNo}'`,
    );
    expect(card?.card_id).toBe(cardId);
    expect(card?.merchant_name).toBe("SHOP pan 555555******4444");
    expect(card?.raw).toContain("ref 411111******1111");
    expect(card?.raw).not.toContain("918273");
    const cardText = await rowsText("card_transactions", "txn_order_no", txn.txnOrderNo);
    noPan(cardText);
    expect(cardText).toContain(cardId);

    const [opRow] = await queryText<{ remark: string; raw: string }>(
      db,
      `SELECT remark, raw::text FROM operate_records WHERE operate_record_id = '${op.operateRecordId}'`,
    );
    expect(opRow?.remark).toBe("to 424242******4242");
    expect(opRow?.raw).toContain("pan 401288******1881");
    noPan(await rowsText("operate_records", "operate_record_id", op.operateRecordId));

    const [acntRow] = await queryText<{ remark: string; external_order_id: string }>(
      db,
      `SELECT remark, external_order_id FROM account_transactions WHERE acnt_txn_id = '${acnt.acntTxnId}'`,
    );
    expect(acntRow).toEqual({
      remark: "card 411111******1111",
      external_order_id: acnt.externalOrderId,
    });
    noPan(await rowsText("account_transactions", "acnt_txn_id", acnt.acntTxnId));
  });

  it("finds a webhook-masked record unchanged when the sync reads it: still masked, no new version", async () => {
    const txn = cardTxn({
      merchantName: "WH pan 4012888888881881",
      extra: { note: "pan 5555 5555 5555 4444" },
    } as Partial<CardTransactionInput>);
    const event = {
      kind: "cardTransaction",
      request_id: nextId(),
      event_type: "issuing.cardTransactionEvent",
      created_at: "2026-06-01T00:00:00Z",
      data: txn,
    } as unknown as Parameters<typeof storeWebhookEvent>[2];
    // As the receiver does it: claim the delivery, then store it (masked by the receiver).
    const dedupe = new PostgresDedupeStore(db);
    expect(await dedupe.claim(event.request_id)).toBe("claimed");
    await storeWebhookEvent(db, dedupe, event);
    const pushed = await stored(txn.txnOrderNo);
    expect(pushed).toMatchObject({ merchantName: "WH pan 401288******1881", version: 1 });

    const result = await commitWindow(db, {
      stream: `card_transactions_${nextId()}`,
      records: { cardTransactions: [{ ...txn }] },
    });
    expect(result.counts).toMatchObject({ inserted: 0, updated: 0, unchanged: 1 });
    const after = await stored(txn.txnOrderNo);
    expect(after).toMatchObject({
      merchantName: "WH pan 401288******1881",
      version: 1,
      source: "webhook",
      rawHash: pushed?.rawHash,
    });
    noPan(await rowsText("card_transactions", "txn_order_no", txn.txnOrderNo));
  });

  it("leaves neither rows nor watermark when the window's transaction fails", async () => {
    const stream = `card_transactions_${nextId()}`;
    const txn = cardTxn();
    // The card transaction is written first; the account row then fails in Postgres.
    const failing = commitWindow(db, {
      stream,
      records: { cardTransactions: [txn], accountTransactions: [accountTxn({ amount: "1.2.3" })] },
      watermark: at("2026-06-01T01:00:00Z"),
    });
    await expect(failing).rejects.toThrow();
    expect(await stored(txn.txnOrderNo)).toBeUndefined();
    expect(await readWatermark(db, stream)).toBeNull();
  });

  it("never moves the watermark backwards", async () => {
    const stream = `operate_records_${nextId()}`;
    await commitWindow(db, { stream, records: {}, watermark: at("2026-06-02T00:00:00Z") });
    const late = cardTxn();
    const result = await commitWindow(db, {
      stream,
      records: { cardTransactions: [late] },
      watermark: at("2026-06-01T00:00:00Z"),
    });
    expect(result.watermark).toEqual(at("2026-06-02T00:00:00Z"));
    expect(await readWatermark(db, stream)).toEqual(at("2026-06-02T00:00:00Z"));
    expect(await stored(late.txnOrderNo)).toBeDefined(); // the late window's rows still count
  });

  it("keeps failed and drifted windows until a re-read commits them", async () => {
    const stream = `card_transactions_${nextId()}`;
    const window = { stream, start: at("2026-06-01T00:00:00Z"), end: at("2026-06-01T01:00:00Z") };
    const other = { stream, start: at("2026-05-31T00:00:00Z"), end: at("2026-05-31T01:00:00Z") };
    await markWindowFailed(db, { ...window, error: new Error("HTTP 503 apikey=s3cr3t") });
    await markWindowFailed(db, { ...window, reason: "drifted" });
    await markWindowFailed(db, { ...other, error: "timeout" });
    const due = await takeWindowsToRetry(db, { stream });
    expect(due.map((w) => [w.start.toISOString(), w.state, w.attempts])).toEqual([
      ["2026-05-31T00:00:00.000Z", "failed", 1],
      ["2026-06-01T00:00:00.000Z", "drifted", 2],
    ]);
    // However often a window failed, it is still to read: never dropped.
    for (let i = 0; i < 20; i++) await markWindowFailed(db, { ...other, error: "timeout" });
    expect(await takeWindowsToRetry(db, { stream })).toHaveLength(2);
    expect(await unreadWindows(db, stream)).toEqual({
      stream,
      windows: 2,
      since: other.start,
      maxAttempts: 21,
    });
    await commitWindow(db, { stream, records: { cardTransactions: [cardTxn()] }, window });
    expect((await takeWindowsToRetry(db, { stream })).map((w) => w.start)).toEqual([other.start]);
  });

  it("gives a window up only by a person's decision, on record, and then no longer reads it", async () => {
    const stream = `card_transactions_${nextId()}`;
    const window = { stream, start: at("2026-06-03T00:00:00Z"), end: at("2026-06-03T01:00:00Z") };
    await markWindowFailed(db, { ...window, error: "HTTP 500" });
    const [listed] = (await listWindows(db)).filter((w) => w.stream === stream);
    if (!listed) throw new Error("the failed window is not listed");
    expect(await giveUpWindow(db, { id: listed.id, by: "alice", reason: "provider lost it" })).toBe(
      true,
    );
    expect(await takeWindowsToRetry(db, { stream })).toEqual([]);
    expect((await unreadWindows(db, stream)).windows).toBe(0);
    const [given] = (await listWindows(db, { all: true })).filter((w) => w.stream === stream);
    expect(given?.state).toBe("given_up");
    expect(given?.givenUp).toMatchObject({ by: "alice", reason: "provider lost it" });
    // Not twice, and never without who and why (the database refuses it).
    expect(await giveUpWindow(db, { id: listed.id, by: "bob", reason: "again" })).toBe(false);
    const refused = await queryText(
      db,
      `UPDATE sync_windows SET state = 'given_up', given_up_by = NULL WHERE id = ${listed.id}`,
    ).catch((error: Error) => error);
    expect(String((refused as Error).cause ?? refused)).toMatch(/sync_windows_given_up_check/);
  });

  it("records a run with its counts and a redacted error", async () => {
    const stream = `card_transactions_${nextId()}`;
    const id = await recordRun(db, { stream, kind: "sync" });
    expect(await lastRuns(db, { stream })).toMatchObject([{ id, outcome: null, finishedAt: null }]);
    await finishRun(db, id, {
      outcome: "partial",
      windows: 3,
      pages: 12,
      recordsSeen: 1_150,
      inserted: 1_000,
      updated: 100,
      unchanged: 49,
      skippedDowngrades: 1,
      error: new Error("card 4111 1111 1111 1111 refused, secretKey=abc, postgres://u:pw@db/x"),
    });
    const [run] = await lastRuns(db, { stream });
    expect(run).toMatchObject({
      outcome: "partial",
      windows: 3,
      recordsSeen: 1_150,
      inserted: 1_000,
    });
    expect(run?.finishedAt).toBeInstanceOf(Date);
    expect(run?.error).not.toMatch(/4111|abc|pw/);
  });

  it("closes a run of the stream left open (its worker lost the database mid-run) when the next one opens", async () => {
    const stream = `card_transactions_${nextId()}`;
    const other = `operate_records_${nextId()}`;
    const abandoned = await recordRun(db, { stream, kind: "schedule" });
    const elsewhere = await recordRun(db, { stream: other, kind: "schedule" });
    const next = await openStreamRun(db, stream, "schedule");
    const [latest, earlier] = await lastRuns(db, { stream });
    expect([latest?.id, latest?.finishedAt]).toEqual([next, null]);
    expect(earlier).toMatchObject({ id: abandoned, outcome: "failed" });
    expect(earlier?.finishedAt).toBeInstanceOf(Date);
    expect(earlier?.error).toMatch(/^ended without closing its run row/);
    // Another stream's run is its own worker's business.
    expect(await lastRuns(db, { stream: other })).toMatchObject([
      { id: elsewhere, finishedAt: null },
    ]);
  });

  it("queues serviceIds until fetched, and again when revealed again", async () => {
    const ids = [nextId(), nextId()];
    expect(await rememberServiceIds(db, ids, "payout")).toBe(2);
    expect(await rememberServiceIds(db, ids, "payout")).toBe(0);
    const first = await serviceIdsToFetch(db, 10_000);
    expect(first.serviceIds).toEqual(expect.arrayContaining(ids));
    await markServiceIdsFetched(db, first.serviceIds, first.asOf, []);
    expect((await serviceIdsToFetch(db, 10_000)).serviceIds).toEqual([]);
    await rememberServiceIds(db, [ids[0] ?? ""], "ledger");
    expect((await serviceIdsToFetch(db, 10_000)).serviceIds).toEqual([]);
    await rememberServiceIds(db, [ids[0] ?? ""], "ledger", { refetch: true });
    expect((await serviceIdsToFetch(db, 10_000)).serviceIds).toEqual([ids[0]]);
  });

  it("reads a fetched serviceId again on its schedule, restarted by a changed posting, settled after the last step", async () => {
    const HOUR = 3_600_000;
    const schedule = [HOUR, 24 * HOUR];
    const [x, y] = [nextId(), nextId()] as [string, string];
    const list = `'${x}', '${y}'`;
    const state = async () =>
      Object.fromEntries(
        (
          await queryText(
            db,
            `SELECT service_id,
               round(extract(epoch FROM reread_at - greatest(revealed_at, postings_changed_at)))::text AS gap,
               (postings_changed_at IS NOT NULL)::text AS changed
             FROM service_ids WHERE service_id IN (${list})`,
          )
        ).map((r) => [r.service_id, [r.gap, r.changed]]),
      );
    // Each id's last change moved `ms` into the past, and its re-read time come.
    const age = (ms: number, ids: string) =>
      db.execute(
        sql.raw(`UPDATE service_ids SET revealed_at = revealed_at - interval '${ms} milliseconds',
          postings_changed_at = postings_changed_at - interval '${ms} milliseconds',
          reread_at = now() - interval '1 second' WHERE service_id IN (${ids})`),
      );
    await rememberServiceIds(db, [x, y], "payout");
    const first = await serviceIdsToFetch(db, 10_000);
    await markServiceIdsFetched(db, [x, y], first.asOf, schedule);
    // First step after the reveal; nothing is due for a re-read yet.
    expect(await state()).toEqual({ [x]: ["3600", "false"], [y]: ["3600", "false"] });
    const rereads = async (limit = 10_000) =>
      (await serviceIdsToFetch(db, limit, "reread")).serviceIds.filter(
        (id) => id === x || id === y,
      );
    expect(await rereads()).toEqual([]);

    // Two hours on: both due (the limit holds), and x has a new posting when they are read.
    await age(2 * HOUR, list);
    expect((await rereads()).sort()).toEqual([x, y].sort());
    expect((await serviceIdsToFetch(db, 1, "reread")).serviceIds).toHaveLength(1);
    const second = await serviceIdsToFetch(db, 10_000, "reread");
    await db.transaction(async (tx) => {
      await commitWindow(tx, {
        stream: "account_transactions",
        records: { accountTransactions: [accountTxn({ serviceId: x })] },
      });
      await markServiceIdsFetched(tx, [x, y], second.asOf, schedule);
    });
    // x changed: its schedule starts again; y's next step is the day after its last change.
    expect(await state()).toEqual({ [x]: ["3600", "true"], [y]: ["86400", "false"] });

    // Past the last step: y is settled (no re-read time), read again only when revealed again.
    await age(2 * 24 * HOUR, `'${y}'`);
    const third = await serviceIdsToFetch(db, 10_000, "reread");
    await markServiceIdsFetched(db, [y], third.asOf, schedule);
    expect((await state())[y]).toEqual([null, "false"]);
    const [view] = await queryText(
      db,
      `SELECT state, next_read_at FROM finance_service_ids WHERE service_id = '${y}'`,
    );
    expect(view).toEqual({ state: "settled", next_read_at: null });
  });

  it("lets one runner hold a stream; the next gets busy until it is released", async () => {
    const stream = `stream_${nextId()}`;
    let release = () => {};
    const holding = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered = () => {};
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const first = withStreamLock(db, stream, async () => {
      entered();
      await holding;
      return "first";
    });
    await inside;
    let ran = false;
    expect(await withStreamLock(db, stream, async () => (ran = true))).toBe("busy");
    expect(await withStreamLock(db, `${stream}_other`, async () => "other")).toBe("other");
    if (kind === "postgres") {
      // Another process: its own pool, so only Postgres's advisory lock can say no.
      const second: Database = await database.openAnother();
      try {
        expect(await withStreamLock(second.db, stream, async () => (ran = true))).toBe("busy");
        release();
        expect(await first).toBe("first");
        expect(await withStreamLock(second.db, stream, async () => "second")).toBe("second");
      } finally {
        await second.close();
      }
    } else {
      release();
      expect(await first).toBe("first");
    }
    expect(ran).toBe(false);
    await expect(
      withStreamLock(db, stream, async () => {
        throw new Error("window failed");
      }),
    ).rejects.toThrow("window failed");
    expect(await withStreamLock(db, stream, async () => "again")).toBe("again");
  });

  it("dedupes webhook deliveries: claim, complete, release and takeover", async () => {
    const store = new PostgresDedupeStore(db);
    const id = BIG_ID;
    expect(await store.claim(id)).toBe("claimed");
    expect(await store.claim(id)).toBe("in_flight");
    await store.recordEvent(db, {
      requestId: id,
      eventType: "issuing.cardTransactionEvent",
      event: { request_id: id, data: { cardAmount: "0.10", cardId: BIG_ID } },
    });
    await store.release(id);
    expect(await store.claim(id)).toBe("claimed");
    await store.complete(id);
    expect(await store.claim(id)).toBe("completed");

    const crashed = nextId();
    expect(await store.claim(crashed)).toBe("claimed");
    expect(await new PostgresDedupeStore(db, { takeoverAfterMs: 60_000 }).claim(crashed)).toBe(
      "in_flight",
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    const impatient = new PostgresDedupeStore(db, { takeoverAfterMs: 10 });
    expect(await impatient.claim(crashed)).toBe("claimed");
    const [row] = await db.select().from(webhookEvents).where(eq(webhookEvents.requestId, crashed));
    expect(row).toMatchObject({ state: "processing", attempts: 2 });

    const [event] = await db.select().from(webhookEvents).where(eq(webhookEvents.requestId, id));
    expect(event).toMatchObject({ state: "done", eventType: null });
  });

  it("claims a request_id once when deliveries race", async () => {
    const store = new PostgresDedupeStore(db);
    const id = nextId();
    const results = await Promise.all([store.claim(id), store.claim(id), store.claim(id)]);
    expect(results.filter((r) => r === "claimed")).toHaveLength(1);
    expect(results.filter((r) => r === "in_flight")).toHaveLength(2);
  });

  it("keeps a recorded event's 64-bit numbers in raw", async () => {
    const store = new PostgresDedupeStore(db);
    const id = nextId();
    await store.claim(id);
    await store.recordEvent(db, {
      requestId: id,
      eventType: "issuing.cardOperateEvent",
      event: { data: { amount: parseJson("0.10"), operateRecordId: parseJson(BIG_ID) } },
    });
    const [row] = await db.select().from(webhookEvents).where(eq(webhookEvents.requestId, id));
    const data = (parseJson(row?.raw ?? "null") as { data: Record<string, unknown> }).data;
    const text = (v: unknown) => (isJsonNumber(v) ? (v as JsonNumber).text : v);
    expect([text(data.amount), text(data.operateRecordId)]).toEqual(["0.10", BIG_ID]);
    expect(row?.eventType).toBe("issuing.cardOperateEvent");
  });
});
