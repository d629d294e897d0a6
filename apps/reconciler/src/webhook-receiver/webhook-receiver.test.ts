// Sandbox pushes → the receiver → the tables, on PGlite and (with DATABASE_URL) a Postgres
// server: a push delivered twice is stored once, and lands where the sync would put it.
import { type RunningSandbox, startSandbox } from "@merchantkit/sandbox";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { cardTransactions, operateRecords, webhookEvents } from "../db/schema";
import { openTestDatabase, type TestDatabase, testBackends } from "../db/test-databases";
import { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver";

const SECRET = Buffer.from("reconciler-test-webhook-secret-0").toString("base64");

async function post(sandbox: RunningSandbox, path: string, body: unknown) {
  const res = await fetch(`${sandbox.url}/__sandbox/issuing${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, unknown>>;
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
      startSandbox({ webhookSecret: SECRET, webhookRetryIntervalMs: 20, settleDelayMs: 0 }),
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
    const { card } = await post(sandbox, "/cards", { balance: "500.00" });
    await sandbox.admin.waitForDeliveries();
    await sandbox.admin.webhookFaults({ duplicateNext: 1 });
    const { transaction } = await post(sandbox, "/transactions", {
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
    const { operateRecordId } = await post(sandbox, "/cards", { balance: "200.00" });
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
});
