// Sandbox payout result notifications → the receiver's payout path → `payouts`, on PGlite and
// (with DATABASE_URL) a Postgres server: stored once however often delivered, laid over a
// queried row without losing what only the query carries, refused (and not stored) when the
// sign is wrong, and the issuing path unchanged beside it.

import { PayoutClient } from "@merchantkit/payout";
import { type RunningSandbox, startSandbox } from "@merchantkit/sandbox";
import { signIssuingWebhook, signNotification } from "@merchantkit/webhooks";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { upsertPayouts } from "../store/payouts";
import { emptyCounts, type UpsertCounts } from "../store/upsert-batch";
import { openTestDatabase, type TestDatabase, testBackends } from "../testing/databases";
import { lockTableElsewhere, startImpatientReceiver, type TableLock } from "../testing/receiver";
import { postSandboxIssuing, SANDBOX_KEYS, TEST_WEBHOOK_SECRET } from "../testing/sandbox";
import { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver";

const SECRET = TEST_WEBHOOK_SECRET;
const SECRET_KEY = SANDBOX_KEYS.PAYOUT_SECRET_KEY;
const MERCHANT_NO = SANDBOX_KEYS.MERCHANT_NO;
const DAY = 86_400_000;

type PayoutRow = {
  payout_id: string;
  request_id: string;
  payout_status: string;
  payout_method: string | null;
  create_time: string | null;
  finish_time: string | null;
  error_code: string | null;
  source_amount: string | null;
  version: number;
  source: string;
  raw: string;
  updated_at: string;
};

async function payoutRow(db: Db, payoutId: string): Promise<PayoutRow | undefined> {
  const [row] = await queryText<PayoutRow>(
    db,
    `SELECT payout_id, request_id, payout_status, payout_method, create_time::text AS create_time,
       finish_time::text AS finish_time, error_code, source_amount::text AS source_amount,
       version, source, raw::text AS raw, updated_at::text AS updated_at
     FROM payouts WHERE payout_id = '${payoutId}'`,
  );
  return row ? { ...row, version: Number(row.version) } : undefined;
}

async function versionCount(db: Db, payoutId: string): Promise<number> {
  const [row] = await queryText<{ n: string }>(
    db,
    `SELECT count(*) AS n FROM payout_versions WHERE payout_id = '${payoutId}'`,
  );
  return Number(row?.n);
}

/** True when the payoutId is due for an account fetch (queued, not fetched since). */
async function isDue(db: Db, payoutId: string): Promise<boolean> {
  const [row] = await queryText<{ n: string }>(
    db,
    `SELECT count(*) AS n FROM service_ids WHERE service_id = '${payoutId}' AND source = 'payout'
       AND (fetched_at IS NULL OR fetched_at < revealed_at)`,
  );
  return Number(row?.n) === 1;
}

/** The payoutId of a notification body (a bare 64-bit number on the wire). */
function payoutIdOf(body: string): string {
  const id = /"payoutId":"?(\d+)/.exec(body)?.[1];
  if (!id) throw new Error(`no payoutId in ${body}`);
  return id;
}

function diff(after: UpsertCounts, before: UpsertCounts): UpsertCounts {
  return {
    inserted: after.inserted - before.inserted,
    updated: after.updated - before.updated,
    unchanged: after.unchanged - before.unchanged,
    skippedDowngrades: after.skippedDowngrades - before.skippedDowngrades,
  };
}

describe.each(testBackends())("payout result notifications on %s", (kind) => {
  let database: TestDatabase;
  let db: Db;
  let sandbox: RunningSandbox;
  let receiver: WebhookReceiver;
  let payoutUrl: string;
  let seed = 40;
  const lines: string[] = [];

  async function admin(path: string, body: unknown): Promise<Record<string, unknown>> {
    const res = await fetch(`${sandbox.url}/__sandbox${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  }

  /** Generates payouts (all still P: settlement is days away) and answers their notifications. */
  async function generate(payouts: number) {
    const before = new Set((await sandbox.admin.deliveries()).map((d) => d.id));
    await admin("/payout/generate", { seed: seed++, payouts, days: 1 });
    const deliveries = (await sandbox.admin.waitForDeliveries({ timeoutMs: 10_000 })).filter(
      (d) => !before.has(d.id) && d.eventType === "payout.result",
    );
    expect(deliveries.length).toBeGreaterThan(0);
    return deliveries.map((d) => ({ ...d, payoutId: payoutIdOf(d.body) }));
  }

  /** The deliveries a step made (`step` runs, then every push is answered). */
  async function deliveriesOf(step: () => Promise<unknown>) {
    const before = new Set((await sandbox.admin.deliveries()).map((d) => d.id));
    await step();
    return (await sandbox.admin.waitForDeliveries({ timeoutMs: 10_000 })).filter(
      (d) => !before.has(d.id),
    );
  }

  async function post(path: string, body: string, headers: Record<string, string> = {}) {
    const res = await fetch(`${receiver.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
    });
    return {
      status: res.status,
      body: (await res.json()) as { respCode: string; respMsg: string },
    };
  }

  beforeAll(async () => {
    [database, sandbox] = await Promise.all([
      openTestDatabase(kind),
      // Settlement a week after acceptance on a frozen clock: generated payouts stay P until
      // the test settles them through the admin.
      startSandbox({ webhookSecret: SECRET, webhookRetryIntervalMs: 200, settleDelayMs: 7 * DAY }),
    ]);
    db = database.db;
    // Frozen at real time: issuing pushes carry it as x-timestamp, checked within 5 minutes.
    await sandbox.admin.freezeClock(Math.floor(Date.now() / 1000) * 1000);
    receiver = await startWebhookReceiver({
      db,
      secret: SECRET,
      payoutSecretKey: SECRET_KEY,
      port: 0,
      log: (line) => lines.push(line),
    });
    payoutUrl = `${receiver.url}/webhooks/payout`;
    await sandbox.admin.configure({
      webhookUrls: { issuing: `${receiver.url}/webhooks/issuing`, payout: payoutUrl },
    });
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
    await sandbox?.close();
    await database?.dispose();
  });

  it("stores a payout notification the sandbox delivers, with its serviceId queued", async () => {
    const before = receiver.stats();
    const deliveries = await generate(2);
    for (const delivery of deliveries) {
      expect(delivery.state).toBe("delivered");
      expect(delivery.url).toBe(payoutUrl);
      expect(delivery.attempts.at(-1)).toMatchObject({ httpStatus: 200, respCode: "20000" });
      const row = await payoutRow(db, delivery.payoutId);
      expect(row).toMatchObject({
        payout_status: "P",
        request_id: delivery.requestId,
        version: 1,
        source: "webhook",
        // A notification carries neither.
        create_time: null,
        payout_method: null,
      });
      expect(row?.source_amount).toMatch(/^\d+\.\d{2}$/);
      expect(row?.raw).not.toContain('"status"');
      expect(row?.raw).not.toContain('"sign"');
      expect(await versionCount(db, delivery.payoutId)).toBe(1);
      expect(await isDue(db, delivery.payoutId)).toBe(true);
    }
    const after = receiver.stats();
    expect(after.events - before.events).toBe(deliveries.length);
    expect(after.payoutNotifications - before.payoutNotifications).toBe(deliveries.length);
    expect(diff(after.counts, before.counts)).toEqual({
      ...emptyCounts(),
      inserted: deliveries.length,
    });
    expect(after.rejected).toBe(before.rejected);
    const stored = lines
      .filter((l) => l.includes('"payout notification stored"'))
      .map((l) => JSON.parse(l));
    expect(stored.some((l) => l.payoutId === deliveries[0]?.payoutId && l.inserted === 1)).toBe(
      true,
    );
  });

  it("stores a notification delivered twice once (the second copy unchanged)", async () => {
    const [generated] = await generate(1);
    const payoutId = generated?.payoutId as string;
    const before = receiver.stats();
    // Two copies of the S notification sent at the same time, then a third one later.
    await sandbox.admin.webhookFaults({ duplicateNext: 1 });
    const copies = await deliveriesOf(() =>
      admin(`/payout/payouts/${payoutId}/settle`, { outcome: "S" }),
    );
    expect(copies).toHaveLength(2);
    expect(new Set(copies.map((c) => c.body)).size).toBe(1);
    expect(copies.every((c) => c.state === "delivered")).toBe(true);
    const again = await deliveriesOf(() => sandbox.admin.redeliver(copies[0]?.id as string));
    expect(again.map((d) => d.state)).toEqual(["delivered"]);

    const row = await payoutRow(db, payoutId);
    expect(row).toMatchObject({ payout_status: "S", version: 2, source: "webhook" });
    expect(row?.finish_time).not.toBeNull();
    expect(await versionCount(db, payoutId)).toBe(2);
    const after = receiver.stats();
    expect(after.payoutNotifications - before.payoutNotifications).toBe(3);
    expect(diff(after.counts, before.counts)).toEqual({
      ...emptyCounts(),
      updated: 1,
      unchanged: 2,
    });
  });

  it("lays a notification over a queried row: create_time kept, a new version only on a change", async () => {
    // The P notification goes nowhere, so the row is the query's.
    await sandbox.admin.configure({ webhookUrls: { payout: null } });
    let undelivered: Awaited<ReturnType<typeof generate>>;
    try {
      undelivered = await generate(1);
    } finally {
      await sandbox.admin.configure({ webhookUrls: { payout: payoutUrl } });
    }
    const [p] = undelivered;
    expect(p?.state).toBe("undeliverable");
    const payoutId = p?.payoutId as string;
    const client = new PayoutClient({
      environment: { origin: sandbox.url },
      secretKey: SECRET_KEY,
      merchantNo: MERCHANT_NO,
    });
    const queried = await client.transfers.retrieve({ payoutId });
    expect(queried.payoutStatus).toBe("P");
    expect(queried.createTime).toBeDefined();
    expect(await upsertPayouts(db, [queried], { source: "sync" })).toMatchObject({ inserted: 1 });
    const synced = await payoutRow(db, payoutId);
    expect(synced).toMatchObject({ version: 1, source: "sync" });
    expect(synced?.create_time).not.toBeNull();
    expect(synced?.payout_method).not.toBeNull();
    // Its postings read: not due until something reveals it again.
    await db.execute(sql`UPDATE service_ids SET fetched_at = now() WHERE service_id = ${payoutId}`);
    expect(await isDue(db, payoutId)).toBe(false);

    // The P notification, now delivered, says nothing new: the row is left as the query wrote it.
    const before = receiver.stats();
    const redelivered = await deliveriesOf(() => sandbox.admin.redeliver(p?.id as string));
    expect(redelivered.map((d) => d.state)).toEqual(["delivered"]);
    expect(await payoutRow(db, payoutId)).toEqual(synced);
    expect(await versionCount(db, payoutId)).toBe(1);
    expect(await isDue(db, payoutId)).toBe(false);
    expect(diff(receiver.stats().counts, before.counts)).toEqual({
      ...emptyCounts(),
      unchanged: 1,
    });

    // P → F: a new version from the webhook, with what only the query carried kept.
    const failed = await deliveriesOf(() =>
      admin(`/payout/payouts/${payoutId}/settle`, { outcome: "F" }),
    );
    expect(failed.map((d) => d.state)).toEqual(["delivered"]);
    const row = await payoutRow(db, payoutId);
    expect(row).toMatchObject({
      payout_status: "F",
      version: 2,
      source: "webhook",
      create_time: synced?.create_time,
      payout_method: synced?.payout_method,
      error_code: "PAYOUT_REJECTED",
    });
    expect(row?.finish_time).not.toBeNull();
    expect(row?.raw).toContain('"createTime"');
    expect(row?.raw).toContain('"payoutMethod"');
    expect(await versionCount(db, payoutId)).toBe(2);
    // F credits PAYOUT_REFUND under the payoutId: due for a new fetch.
    expect(await isDue(db, payoutId)).toBe(true);

    // The query of the failed payout finds exactly what the notification stored.
    const final = await client.transfers.retrieve({ payoutId });
    expect(final.payoutStatus).toBe("F");
    expect(await upsertPayouts(db, [final], { source: "sync" })).toEqual({
      ...emptyCounts(),
      unchanged: 1,
    });
    expect((await payoutRow(db, payoutId))?.version).toBe(2);
  });

  it("refuses a notification with a bad sign (401) or a bad body (400) and stores nothing", async () => {
    const payoutId = "1953712585351499123";
    const fields = { merchantNo: MERCHANT_NO, payoutId, requestId: "forged-1", payoutStatus: "S" };
    const before = receiver.stats();
    lines.length = 0;
    const forged = await signNotification({ body: fields, secretKey: "not-the-secret-key" });
    const genuine = await signNotification({ body: fields, secretKey: SECRET_KEY });
    const cases: [string, string, number, string][] = [
      ["signed with another key", forged, 401, "40100"],
      ["changed after signing", genuine.replace('"S"', '"F"'), 401, "40100"],
      ["unsigned", JSON.stringify(fields), 401, "40100"],
      ["not JSON", "payoutStatus=S", 400, "40000"],
    ];
    for (const [what, body, status, respCode] of cases) {
      const res = await post("/webhooks/payout", body);
      expect({ what, ...res }).toMatchObject({ what, status, body: { respCode } });
    }
    // Signed, but out of contract: "S" with the failure wording.
    const contradicting = await signNotification({
      body: { ...fields, status: "failure" },
      secretKey: SECRET_KEY,
    });
    const refused = await post("/webhooks/payout", contradicting);
    expect(refused.status).toBe(400);
    expect(refused.body.respMsg).toContain("payoutStatus");

    expect(await payoutRow(db, payoutId)).toBeUndefined();
    expect(await isDue(db, payoutId)).toBe(false);
    const after = receiver.stats();
    expect(after.rejected - before.rejected).toBe(cases.length + 1);
    expect(after.events).toBe(before.events);
    const rejected = lines
      .filter((l) => l.includes('"webhook rejected"'))
      .map((l) => JSON.parse(l));
    expect(rejected).toHaveLength(cases.length + 1);
    expect(rejected.every((l) => l.endpoint === "payout")).toBe(true);
    expect(rejected[0]?.kind).toBe("SignatureError");
  });

  it("acknowledges a notification whose status it cannot read, without storing it", async () => {
    const payoutId = "1953712585351499124";
    lines.length = 0;
    const body = await signNotification({
      body: { merchantNo: MERCHANT_NO, payoutId, requestId: "unknown-1", status: "reversed" },
      secretKey: SECRET_KEY,
    });
    const res = await post("/webhooks/payout", body);
    expect(res).toEqual({ status: 200, body: { respCode: "20000", respMsg: "success" } });
    expect(await payoutRow(db, payoutId)).toBeUndefined();
    const [line] = lines
      .filter((l) => l.includes('"payout notification not stored"'))
      .map((l) => JSON.parse(l));
    expect(line?.reason).toContain('"reversed"');
  });

  it("keeps the issuing endpoint on every other path", async () => {
    const { operateRecordId } = await postSandboxIssuing(sandbox, "/cards", { balance: "50.00" });
    const deliveries = await sandbox.admin.waitForDeliveries({ timeoutMs: 10_000 });
    const push = deliveries.find((d) => d.body.includes(String(operateRecordId)));
    expect(push).toMatchObject({ kind: "issuing", state: "delivered" });
    const [stored] = await queryText<{ source: string }>(
      db,
      `SELECT source FROM operate_records WHERE operate_record_id = '${operateRecordId}'`,
    );
    expect(stored?.source).toBe("webhook");
    // A signed issuing push on a path of its own choosing is still issuing.
    const signed = await signIssuingWebhook({
      body: `{"request_id":"1953712585351499555","event_type":"issuing.unknownEvent","created_at":"2026-11-25T08:00:00Z","data":{}}`,
      secret: SECRET,
    });
    expect((await post("/hooks", signed.body, signed.headers)).status).toBe(200);
    // A notification is not an issuing push (no signature headers), nor the reverse.
    const notification = await signNotification({
      body: { merchantNo: MERCHANT_NO, payoutId: "1", requestId: "r", payoutStatus: "S" },
      secretKey: SECRET_KEY,
    });
    expect((await post("/webhooks/issuing", notification)).status).toBe(401);
    expect((await post("/webhooks/payout", signed.body, signed.headers)).status).toBe(401);
  });

  it("answers 500 when the database is away, and stores the retry", async () => {
    const payoutId = "1953712585351499125";
    const body = await signNotification({
      body: { merchantNo: MERCHANT_NO, payoutId, requestId: "away-1", status: "success" },
      secretKey: SECRET_KEY,
    });
    let away = true;
    const flaky = await startWebhookReceiver({
      db: async () => {
        if (away) throw new Error("connect ECONNREFUSED 127.0.0.1:5432");
        return db;
      },
      secret: SECRET,
      payoutSecretKey: SECRET_KEY,
      port: 0,
      log: () => {},
    });
    try {
      const first = await fetch(`${flaky.url}/webhooks/payout`, { method: "POST", body });
      expect(first.status).toBe(500);
      expect(((await first.json()) as { respCode: string }).respCode).toBe("50000");
      expect(await payoutRow(db, payoutId)).toBeUndefined();
      expect(flaky.stats()).toMatchObject({ events: 0, rejected: 1 });
      away = false;
      const retry = await fetch(`${flaky.url}/webhooks/payout`, { method: "POST", body });
      expect(retry.status).toBe(200);
      expect(await payoutRow(db, payoutId)).toMatchObject({ payout_status: "S", version: 1 });
      expect(flaky.stats()).toMatchObject({ events: 1, payoutNotifications: 1, rejected: 1 });
    } finally {
      await flaky.close();
    }
  });

  // A second session must hold a lock, and PGlite has one connection: a Postgres test.
  if (kind === "postgres")
    it("answers 500 for a notification whose storing outlives the timeout", async () => {
      const payoutId = "1953712585351499126";
      const body = await signNotification({
        body: { merchantNo: MERCHANT_NO, payoutId, requestId: "locked-1", payoutStatus: "P" },
        secretKey: SECRET_KEY,
      });
      const impatient = await startImpatientReceiver({
        db,
        secret: SECRET,
        payoutSecretKey: SECRET_KEY,
      });
      let lock: TableLock | undefined;
      try {
        lock = await lockTableElsewhere(db, "payouts");
        const started = Date.now();
        const res = await fetch(`${impatient.url}/webhooks/payout`, {
          method: "POST",
          body,
          signal: AbortSignal.timeout(8_000),
        });
        expect(res.status).toBe(500);
        expect(Date.now() - started).toBeLessThan(5_000);
        await lock.release();
        expect(await payoutRow(db, payoutId)).toBeUndefined();
        const retry = await fetch(`${impatient.url}/webhooks/payout`, { method: "POST", body });
        expect(retry.status).toBe(200);
        expect(await payoutRow(db, payoutId)).toMatchObject({ payout_status: "P", version: 1 });
      } finally {
        await lock?.release().catch(() => {});
        await impatient.close();
      }
    }, 20_000);

  it("answers 404 on the payout path without PAYOUT_SECRET_KEY, saying why; issuing still works", async () => {
    const said: string[] = [];
    const issuingOnly = await startWebhookReceiver({
      db,
      secret: SECRET,
      port: 0,
      log: (line) => said.push(line),
    });
    try {
      const off = said.map((l) => JSON.parse(l)).find((l) => l.msg === "payout notifications off");
      expect(off?.reason).toContain("PAYOUT_SECRET_KEY");
      const payoutId = "1953712585351499127";
      const body = await signNotification({
        body: { merchantNo: MERCHANT_NO, payoutId, requestId: "off-1", payoutStatus: "S" },
        secretKey: SECRET_KEY,
      });
      const res = await fetch(`${issuingOnly.url}/webhooks/payout`, { method: "POST", body });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({
        respCode: "40400",
        respMsg: "payout notifications are not configured",
      });
      expect(await payoutRow(db, payoutId)).toBeUndefined();
      const line = said.map((l) => JSON.parse(l)).find((l) => l.msg === "webhook rejected");
      expect(line).toMatchObject({ endpoint: "payout", kind: "NotConfigured" });
      expect(line?.reason).toContain("PAYOUT_SECRET_KEY");

      const signed = await signIssuingWebhook({
        body: `{"request_id":"1953712585351499556","event_type":"issuing.unknownEvent","created_at":"2026-11-25T08:00:00Z","data":{}}`,
        secret: SECRET,
      });
      const issuing = await fetch(`${issuingOnly.url}/webhooks/issuing`, {
        method: "POST",
        body: signed.body,
        headers: signed.headers,
      });
      expect(issuing.status).toBe(200);
      expect(issuingOnly.stats()).toMatchObject({ events: 1, payoutNotifications: 0, rejected: 1 });
    } finally {
      await issuingOnly.close();
    }
  });
});
