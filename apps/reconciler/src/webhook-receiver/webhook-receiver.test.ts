// Sandbox pushes → the receiver → the tables, on PGlite and (with DATABASE_URL) a Postgres
// server: a push delivered twice is stored once, and lands where the sync would put it.
import { createHmac } from "node:crypto";
import { type RunningSandbox, startSandbox } from "@merchantkit/sandbox";
import { parseIssuingEvent, signIssuingWebhook } from "@merchantkit/webhooks";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { cardTransactions, operateRecords, webhookEvents } from "../db/schema";
import { PostgresDedupeStore } from "../store/dedupe-store";
import { upsertOperateRecords } from "../store/operate-records";
import { openTestDatabase, type TestDatabase, testBackends } from "../testing/databases";
import { lockTableElsewhere, startImpatientReceiver, type TableLock } from "../testing/receiver";
import { postSandboxIssuing, TEST_WEBHOOK_SECRET } from "../testing/sandbox";
import { storeWebhookEvent } from "./store-event";
import { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver";

const SECRET = TEST_WEBHOOK_SECRET;

// Card numbers sent in below; the dump at the end must hold none of them.
const PANS = ["4111111111111111", "5555555555554444", "4242424242424242", "4000056655665556"];

let nextRequestId = 1_953_712_585_351_900_000n;

/** A signed card transaction push; `data` is written into the JSON text as it is. */
async function signedTransaction(data: string) {
  nextRequestId += 1n;
  const body = `{"request_id":"${nextRequestId}","event_type":"issuing.cardTransactionEvent","created_at":"2026-11-25T08:00:00Z","data":${data}}`;
  return signIssuingWebhook({ body, secret: SECRET });
}

function txnData(fields: Record<string, string>): string {
  const base: Record<string, string> = {
    txnType: '"AUTHORIZATION"',
    txnStatus: '"S"',
    txnOrderNo: `"PUSH-${nextRequestId}"`,
    cardId: "1953712585351499998",
    transactionAmount: "12.34",
    transactionCurrency: '"USD"',
    transactionTime: "1764057600000",
    merchantName: '"Coffee"',
  };
  return `{${Object.entries({ ...base, ...fields })
    .map(([k, v]) => `"${k}":${v}`)
    .join(",")}}`;
}

describe.each(testBackends())("webhook receiver on %s", (kind) => {
  let database: TestDatabase;
  let db: Db;
  let sandbox: RunningSandbox;
  let receiver: WebhookReceiver;
  const lines: string[] = [];
  beforeAll(async () => {
    [database, sandbox] = await Promise.all([
      openTestDatabase(kind),
      // Retries 200 ms apart (ten at most): a duplicate answered 409 while the first copy is
      // still being stored (slow on a loaded machine) gets two seconds to find it done.
      startSandbox({ webhookSecret: SECRET, webhookRetryIntervalMs: 200, settleDelayMs: 0 }),
    ]);
    db = database.db;
    receiver = await startWebhookReceiver({
      db,
      secret: SECRET,
      port: 0,
      log: (line) => lines.push(line),
    });
    await sandbox.admin.configure({ webhookUrls: { issuing: `${receiver.url}/webhooks/issuing` } });
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
    await sandbox?.close();
    await database?.dispose();
  });

  it("stores a push delivered twice once", async () => {
    const { card } = await postSandboxIssuing(sandbox, "/cards", { balance: "500.00" });
    await sandbox.admin.waitForDeliveries();
    await sandbox.admin.webhookFaults({ duplicateNext: 1 });
    const { transaction } = await postSandboxIssuing(sandbox, "/transactions", {
      cardId: (card as { cardId: string }).cardId,
      amount: "12.34",
    });
    const txnOrderNo = (transaction as { txnOrderNo: string }).txnOrderNo;
    const deliveries = await sandbox.admin.waitForDeliveries();
    const copies = deliveries.filter((d) => d.body.includes(txnOrderNo));
    expect(copies).toHaveLength(2);
    expect(copies.every((d) => d.state === "delivered")).toBe(true);
    expect(new Set(copies.map((d) => d.requestId)).size).toBe(1);

    const rows = await db
      .select()
      .from(cardTransactions)
      .where(eq(cardTransactions.txnOrderNo, txnOrderNo));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.source).toBe("webhook");
    expect(rows[0]?.version).toBe(1);
    const [versions] = await queryText<{ n: string }>(
      db,
      `SELECT count(*) AS n FROM card_transaction_versions WHERE txn_order_no = '${txnOrderNo}'`,
    );
    expect(Number(versions?.n)).toBe(1);
    const events = await db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.requestId, copies[0]?.requestId ?? ""));
    expect(events).toHaveLength(1);
    expect(events[0]?.state).toBe("done");
    expect(events[0]?.eventType).toBe("issuing.cardTransactionEvent");
    expect(receiver.stats().rejected).toBe(0);
  });

  it("stores card operations and queues their serviceId for the account stream", async () => {
    const { operateRecordId } = await postSandboxIssuing(sandbox, "/cards", { balance: "200.00" });
    await sandbox.admin.waitForDeliveries();
    const rows = await db
      .select()
      .from(operateRecords)
      .where(eq(operateRecords.operateRecordId, operateRecordId as string));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.status).toBe("S");
    const [due] = await queryText<{ n: string }>(
      db,
      `SELECT count(*) AS n FROM service_ids WHERE service_id = '${operateRecordId}' AND fetched_at IS NULL`,
    );
    expect(Number(due?.n)).toBe(1);
  });

  it("refuses a push with a bad signature", async () => {
    const res = await fetch(`${receiver.url}/webhooks/issuing`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-timestamp": "1", "x-signature": "00" },
      body: "{}",
    });
    expect(res.status).toBe(401);
  });

  it("refuses a body that is not UTF-8 with 400 and a log line saying so, and stores nothing", async () => {
    lines.length = 0;
    const data = txnData({ merchantName: '"Caf\u00e9"' });
    const txnOrderNo = /"txnOrderNo":"([^"]*)"/.exec(data)?.[1] ?? "";
    const { body } = await signedTransaction(data);
    // The "é" as the byte 0xE9 (Latin-1), and the push signed over the bytes as sent.
    const bytes = Buffer.from(body, "latin1");
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = createHmac("sha256", Buffer.from(SECRET, "base64"))
      .update(Buffer.concat([Buffer.from(`${timestamp}.`), bytes]))
      .digest("hex");
    const res = await fetch(`${receiver.url}/webhooks/issuing`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-timestamp": timestamp,
        "x-signature": signature,
      },
      body: bytes,
    });
    expect(res.status).toBe(400);
    expect(await stored(txnOrderNo)).toHaveLength(0);
    const line = JSON.parse(lines.find((l) => l.includes("webhook rejected")) ?? "{}");
    expect(line.reason).toContain("not valid UTF-8");
    expect(line.kind).toBe("SignatureError");
  });

  async function deliver(signed: { body: string; headers: Record<string, string> }) {
    const res = await fetch(`${receiver.url}/webhooks/issuing`, {
      method: "POST",
      body: signed.body,
      headers: signed.headers,
    });
    return { status: res.status, body: (await res.json()) as { respMsg: string } };
  }

  async function stored(txnOrderNo: string) {
    return db.select().from(cardTransactions).where(eq(cardTransactions.txnOrderNo, txnOrderNo));
  }

  it("answers a body over 1 MiB with 413, closes cleanly and logs why", async () => {
    lines.length = 0;
    const res = await fetch(`${receiver.url}/webhooks/issuing`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "x".repeat(1024 * 1024 + 1),
    });
    expect(res.status).toBe(413);
    expect(res.headers.get("connection")).toBe("close");
    const line = JSON.parse(lines.find((l) => l.includes("webhook rejected")) ?? "{}");
    expect(line.reason).toBe("body is over the 1048576-byte limit");
    expect((await fetch(`${receiver.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${receiver.url}/healthz?probe=1`)).status).toBe(200);
  });

  it("refuses a cardId that is not an id with 400 and the reason, and stores nothing", async () => {
    lines.length = 0;
    const data = txnData({ cardId: '"abc"' });
    const txnOrderNo = /"txnOrderNo":"([^"]*)"/.exec(data)?.[1] ?? "";
    const res = await deliver(await signedTransaction(data));
    expect(res.status).toBe(400);
    expect(res.body.respMsg).toContain("data.cardId: ");
    expect(await stored(txnOrderNo)).toHaveLength(0);
    const line = JSON.parse(lines.find((l) => l.includes("webhook rejected")) ?? "{}");
    expect(line.reason).toContain("data.cardId");
  });

  // A signed push is the service's data, read as leniently as a query answer of the same record:
  // refused, the service would retry it ~10 times and drop it, and the event would be lost.
  it.each([
    ["an amount in exponent form", { transactionAmount: "1e2" }, "transactionAmount", "100"],
    [
      "a 5,000-character txnOrderNo",
      { txnOrderNo: `"${"T".repeat(5000)}"` },
      "txnOrderNo",
      "T".repeat(5000),
    ],
    ["a cardId past 64 bits", { cardId: "18446744073709551616" }, "cardId", "18446744073709551616"],
    [
      "a 300-character merchantName",
      { merchantName: `"${"M".repeat(300)}"` },
      "merchantName",
      "M".repeat(300),
    ],
  ] as const)("stores %s as the query would read it", async (_what, fields, column, value) => {
    const data = txnData(fields);
    const txnOrderNo = /"txnOrderNo":"([^"]*)"/.exec(data)?.[1] ?? "";
    expect((await deliver(await signedTransaction(data))).status).toBe(200);
    const [row] = await stored(txnOrderNo);
    expect(row?.[column]).toBe(value);
  });

  it("stores a card number from any field masked and never a 3DS value", async () => {
    const data = txnData({
      cardId: `"${PANS[0]}"`,
      cardNumber: PANS[1] as string,
      merchantName: `"Paid with 4242 4242 4242 4242 ok"`,
      authMessageDesc: `"pan ${PANS[3]}"`,
      card3dsValues: '"918273"',
    });
    const txnOrderNo = /"txnOrderNo":"([^"]*)"/.exec(data)?.[1] ?? "";
    expect((await deliver(await signedTransaction(data))).status).toBe(200);
    const [row] = await stored(txnOrderNo);
    expect(row?.cardId).toBe("411111******1111");
    expect(row?.merchantName).toBe("Paid with 424242******4242 ok");
    const raw = JSON.stringify(row?.raw);
    expect(raw).toContain("555555******4444");
    expect(raw).toContain("400005******5556");
    expect(raw).not.toContain("918273");
    expect(raw).not.toContain("card3dsValues");
  });

  it("stores times and amounts as they are, even where their digits pass the card-number check", async () => {
    // 1764057600009 passes the Luhn check: as epoch milliseconds a time of 2025-11-25, and as
    // an amount one a currency without minor units can carry.
    const data = txnData({
      transactionTime: "1764057600009",
      authTime: "1764057600009",
      transactionAmount: "1764057600009",
    });
    const txnOrderNo = /"txnOrderNo":"([^"]*)"/.exec(data)?.[1] ?? "";
    expect((await deliver(await signedTransaction(data))).status).toBe(200);
    const [row] = await stored(txnOrderNo);
    expect(row?.transactionTime?.getTime()).toBe(1764057600009);
    expect(row?.authTime?.getTime()).toBe(1764057600009);
    expect(row?.transactionAmount).toBe("1764057600009");
  });

  it("keeps a known card's id even when it passes the card-number check", async () => {
    // 1953712585351499999 passes the Luhn check; once the sync has read a card operation of
    // the card with that id, a push naming it keeps the id.
    const known = "1953712585351499999";
    await upsertOperateRecords(
      db,
      [
        {
          operateRecordId: "1953712585351499991",
          cardId: known,
          clientRequestId: "known-card",
          type: "CREATE",
          status: "S",
          operateTime: 1764057600000,
        },
      ],
      { source: "sync" },
    );
    const data = txnData({ cardId: known });
    const txnOrderNo = /"txnOrderNo":"([^"]*)"/.exec(data)?.[1] ?? "";
    expect((await deliver(await signedTransaction(data))).status).toBe(200);
    expect((await stored(txnOrderNo))[0]?.cardId).toBe(known);
  });

  it("stores the service's next retry of a push whose handling died", async () => {
    // The receiver that claimed it was killed, or lost its database before it could release
    // the claim: the row stays "processing". The service retries 15 s later.
    const data = txnData({});
    const txnOrderNo = /"txnOrderNo":"([^"]*)"/.exec(data)?.[1] ?? "";
    const signed = await signedTransaction(data);
    const requestId = String(nextRequestId);
    await db.execute(
      sql`INSERT INTO webhook_events (request_id, state, received_at, claimed_at, attempts)
        VALUES (${requestId}, 'processing', now() - interval '15 seconds',
          now() - interval '15 seconds', 1)`,
    );
    const res = await deliver(signed);
    expect(res.status).toBe(200);
    expect(await stored(txnOrderNo)).toHaveLength(1);
    const [event] = await db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.requestId, requestId));
    expect(event).toMatchObject({ state: "done", attempts: 2 });
  });

  it("stores one push handled twice at once (a takeover) as one record version", async () => {
    const data = txnData({});
    const txnOrderNo = /"txnOrderNo":"([^"]*)"/.exec(data)?.[1] ?? "";
    const signed = await signedTransaction(data);
    const requestId = String(nextRequestId);
    const event = parseIssuingEvent(signed.body);
    expect(await new PostgresDedupeStore(db).claim(requestId)).toBe("claimed");
    // Two receivers storing it side by side (neither holds the claim's token, so neither is
    // refused as taken over): the upserts write it once.
    const results = await Promise.all([
      storeWebhookEvent(db, new PostgresDedupeStore(db), event),
      storeWebhookEvent(db, new PostgresDedupeStore(db), event),
    ]);
    expect(results.map((r) => r.inserted).sort()).toEqual([0, 1]);
    expect(await stored(txnOrderNo)).toHaveLength(1);
    const [versions] = await queryText<{ n: string }>(
      db,
      `SELECT count(*) AS n FROM card_transaction_versions WHERE txn_order_no = '${txnOrderNo}'`,
    );
    expect(Number(versions?.n)).toBe(1);
  });

  // A second session must hold a lock, and PGlite has one connection: a Postgres test.
  if (kind === "postgres")
    it("answers 500 for a push whose storing outlives the takeover age, and stores its retry", async () => {
      const impatient = await startImpatientReceiver({ db, secret: SECRET });
      let lock: TableLock | undefined;
      try {
        // Another session holds the table: the push's upsert waits on it.
        lock = await lockTableElsewhere(db, "card_transactions");
        const data = txnData({});
        const txnOrderNo = /"txnOrderNo":"([^"]*)"/.exec(data)?.[1] ?? "";
        const signed = await signedTransaction(data);
        const started = Date.now();
        const res = await fetch(`${impatient.url}/webhooks/issuing`, {
          method: "POST",
          body: signed.body,
          headers: signed.headers,
          signal: AbortSignal.timeout(8_000),
        });
        expect(res.status).toBe(500);
        expect(Date.now() - started).toBeLessThan(5_000);
        await lock.release();
        const retry = await fetch(`${impatient.url}/webhooks/issuing`, {
          method: "POST",
          body: signed.body,
          headers: signed.headers,
        });
        expect(retry.status).toBe(200);
        expect(await stored(txnOrderNo)).toHaveLength(1);
      } finally {
        await lock?.release().catch(() => {});
        await impatient.close();
      }
    }, 20_000);

  it("leaves no card number anywhere in the database", async () => {
    const tables = await queryText<{ name: string }>(
      db,
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
    );
    expect(tables.length).toBeGreaterThan(10);
    let dump = "";
    for (const { name } of tables) {
      const rows = await queryText<{ row: string }>(db, `SELECT t::text AS row FROM "${name}" t`);
      dump += rows.map((r) => r.row).join("\n");
    }
    expect(dump).toContain("411111******1111");
    for (const pan of PANS) expect(dump).not.toContain(pan);
    expect(dump).not.toContain("918273");
  });
});
