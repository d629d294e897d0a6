import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { testBackends } from "../testing/databases";
import {
  type GeneratedSandbox,
  postSandboxIssuing,
  sandboxSyncContext,
  TEST_WEBHOOK_SECRET,
  useSandboxDatabase,
} from "../testing/sandbox";
import { startWebhookReceiver, type WebhookReceiver } from "../webhook-receiver/webhook-receiver";
import { runSync } from "./run-sync";

const SECRET = TEST_WEBHOOK_SECRET;
const PANS = ["5555555555554444", "4012888888881881"];

describe.each(testBackends())("card numbers read by the sync on %s", (kind) => {
  let db: Db;
  let generated: GeneratedSandbox;
  let receiver: WebhookReceiver;
  useSandboxDatabase(
    kind,
    {
      cardTransactions: 100,
      cards: 4,
      days: 2,
      // Pushes are signed at the sandbox's frozen time: within the receiver's 5-minute window.
      behindMs: 60_000,
      webhookSecret: SECRET,
      settleDelayMs: 0,
    },
    (database, sandbox) => {
      db = database.db;
      generated = sandbox;
    },
  );
  beforeAll(async () => {
    receiver = await startWebhookReceiver({ db, secret: SECRET, port: 0, log: () => {} });
  });
  afterAll(async () => {
    await receiver?.close();
  });

  const sync = async () => {
    const ctx = sandboxSyncContext(db, generated);
    const summary = await runSync(ctx);
    expect(summary.outcome, ctx.lines.join("\n")).toBe("ok");
    return summary;
  };
  /** A new card, read by a sync (so its id is a known card's), and a transaction on it. */
  const cardWithTransaction = async (merchantName: string, pushed: boolean) => {
    const { card } = await postSandboxIssuing(generated.sandbox, "/cards", { balance: "500.00" });
    await sync();
    const { sandbox } = generated;
    if (pushed)
      await sandbox.admin.configure({
        webhookUrls: { issuing: `${receiver.url}/webhooks/issuing` },
      });
    const { transaction } = await postSandboxIssuing(sandbox, "/transactions", {
      cardId: (card as { cardId: string }).cardId,
      amount: "2.22",
      merchant: { merchantName },
    });
    if (pushed) {
      await sandbox.admin.waitForDeliveries();
      await sandbox.admin.configure({ webhookUrls: { issuing: null } });
    }
    return (transaction as { txnOrderNo: string }).txnOrderNo;
  };
  const row = async (txnOrderNo: string) =>
    (
      await queryText<{ merchant_name: string; version: string; source: string; raw: string }>(
        db,
        `SELECT merchant_name, version::text, source, raw::text FROM card_transactions WHERE txn_order_no = '${txnOrderNo}'`,
      )
    )[0];
  const versions = async (txnOrderNo: string) =>
    queryText<{ version: string; source: string; raw: string }>(
      db,
      `SELECT version::text, source, raw::text FROM card_transaction_versions WHERE txn_order_no = '${txnOrderNo}' ORDER BY version`,
    );

  it("stores a card number in a merchant name masked in the column, raw and versions", async () => {
    const txnOrderNo = await cardWithTransaction("SHOP pan 5555555555554444", false);
    await sync();
    const stored = await row(txnOrderNo);
    expect(stored).toMatchObject({ merchant_name: "SHOP pan 555555******4444", version: "1" });
    expect(stored?.raw).toContain('"merchantName": "SHOP pan 555555******4444"');
    const history = await versions(txnOrderNo);
    expect(history).toHaveLength(1);
    expect(history[0]?.raw).toContain("SHOP pan 555555******4444");
  }, 120_000);

  it("leaves a pushed record as the receiver masked it: the sync adds no version", async () => {
    const txnOrderNo = await cardWithTransaction("WH pan 4012888888881881", true);
    const pushed = await row(txnOrderNo);
    expect(pushed).toMatchObject({
      merchant_name: "WH pan 401288******1881",
      version: "1",
      source: "webhook",
    });
    await sync();
    expect(await row(txnOrderNo)).toEqual(pushed);
    expect((await versions(txnOrderNo)).map((v) => [v.version, v.source])).toEqual([
      ["1", "webhook"],
    ]);
  }, 120_000);

  it("leaves no card number in any table", async () => {
    const tables = await queryText<{ name: string }>(
      db,
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
    );
    let dump = "";
    for (const { name } of tables) {
      const rows = await queryText<{ row: string }>(db, `SELECT t::text AS row FROM "${name}" t`);
      dump += rows.map((r) => r.row).join("\n");
    }
    expect(dump).toContain("555555******4444");
    for (const pan of PANS) expect(dump).not.toContain(pan);
  });
});
