// An authorization that expires, or a card operation that settles, after its window left the
// lookback: no window lists it again, so the issuing streams follow records still P from before
// their range one by one. Without that, an expired authorization stays P in the store and turns
// into a false stale_authorization holding money the card has back, and a settled deposit
// stays "still processing".
import { describe, expect, it } from "vitest";
import { readStatus } from "../cli/commands/status";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { runMatch } from "../match/run-match";
import { testBackends } from "../testing/databases";
import { type GeneratedSandbox, sandboxSyncContext, useSandboxDatabase } from "../testing/sandbox";
import { storedResults } from "../testing/stored-results";
import { runSync } from "./run-sync";

const HOUR = 3_600_000;

describe.each(testBackends())("pending issuing records on %s", (kind) => {
  let db: Db;
  let generated: GeneratedSandbox;
  useSandboxDatabase(kind, { cards: 3, cardTransactions: 60, days: 3 }, (database, g) => {
    db = database.db;
    generated = g;
  });

  /** Sync (a 1 h lookback unless told), then an incremental match (stale after 1 h) that equals a full one. */
  async function tick(what: string, lookback = "1h", settings: Record<string, string> = {}) {
    const ctx = sandboxSyncContext(db, generated, { RECONCILER_LOOKBACK: lookback, ...settings });
    const sync = await runSync(ctx);
    expect(sync.outcome, what).toBe("ok");
    const options = { staleAuthorizationMs: HOUR, ledgerGraceMs: 0, maxScopeShare: 1 };
    const run = await runMatch(db, { ...options, maxSyncLagMs: 30 * 24 * HOUR });
    const after = await storedResults(db);
    await runMatch(db, { ...options, maxSyncLagMs: 30 * 24 * HOUR, asOf: run.asOf, full: true });
    expect(await storedResults(db), what).toEqual(after);
    return { sync, lines: ctx.lines };
  }

  const stored = async (txnOrderNo: string) =>
    (
      await queryText<{ txn_status: string }>(
        db,
        `SELECT txn_status FROM card_transactions WHERE txn_order_no = '${txnOrderNo}'`,
      )
    )[0]?.txn_status;

  const openStale = async (txnOrderNo: string) =>
    (
      await queryText<{ n: string }>(
        db,
        `SELECT count(*)::text AS n FROM breaks WHERE class = 'stale_authorization'
          AND status <> 'resolved' AND provider_ref = '${txnOrderNo}'`,
      )
    )[0]?.n;

  it("follows an authorization that expires after the lookback to F, and its hold is gone", async () => {
    await tick("first tick");
    // Authorizations still P, older than the lookback, holding money: each a stale authorization.
    const pending = await queryText<{ txn_order_no: string }>(
      db,
      `SELECT a.txn_order_no FROM card_transactions a
       WHERE a.txn_type = 'AUTHORIZATION' AND a.txn_status = 'P'
         AND a.transaction_time < now() - interval '2 hours'
         AND EXISTS (SELECT 1 FROM breaks b WHERE b.class = 'stale_authorization'
           AND b.status <> 'resolved' AND b.provider_ref = a.txn_order_no)
       ORDER BY a.transaction_time`,
    );
    expect(pending.length).toBeGreaterThan(1);
    const [expiring, stillPending] = pending as [(typeof pending)[0], (typeof pending)[0]];

    const res = await fetch(
      `${generated.sandbox.url}/__sandbox/issuing/transactions/${expiring.txn_order_no}/fail`,
      { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" },
    );
    expect(res.status).toBe(200);

    const { sync } = await tick("the authorization expired");
    // Every pending record from before the range was asked for, once, as one more window.
    expect(sync.streams.card_transactions?.recordsSeen).toBeGreaterThanOrEqual(pending.length);
    expect(sync.streams.card_transactions?.updated).toBe(1);
    expect(await stored(expiring.txn_order_no)).toBe("F");
    expect(await openStale(expiring.txn_order_no)).toBe("0");
    // One the service still holds stays P and stays a stale authorization.
    expect(await stored(stillPending.txn_order_no)).toBe("P");
    expect(await openStale(stillPending.txn_order_no)).toBe("1");
    // `status` says how many are still P and since when, per stream.
    const [p] = await queryText<{ n: string; oldest: Date }>(
      db,
      `SELECT count(*)::text AS n, min(transaction_time) AS oldest
        FROM card_transactions WHERE txn_status = 'P'`,
    );
    const card = (await readStatus(db)).find((s) => s.stream === "card_transactions");
    expect(card?.stillPending?.count).toBe(Number(p?.n));
    expect(card?.stillPending?.oldest).toBe(new Date(p?.oldest as Date).toISOString());

    // Nothing changed: the follow-up reads them again and writes nothing.
    const again = await tick("nothing changed");
    expect(again.sync.streams.card_transactions?.updated).toBe(0);
    expect(await stored(expiring.txn_order_no)).toBe("F");
  }, 120_000);

  it("follows more pending records than a run may in turn, so the newest is not left unread", async () => {
    // Every pending record read and followed once: the follow-up's cursor is on the newest.
    await tick("records stored");
    const pending = await queryText<{ txn_order_no: string }>(
      db,
      `SELECT txn_order_no FROM card_transactions WHERE txn_status = 'P'
        AND transaction_time < now() - interval '2 hours' ORDER BY transaction_time, txn_order_no`,
    );
    expect(pending.length).toBeGreaterThan(4);
    const newest = pending.at(-1)?.txn_order_no as string;
    const res = await fetch(
      `${generated.sandbox.url}/__sandbox/issuing/transactions/${newest}/fail`,
      { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" },
    );
    expect(res.status).toBe(200);
    // Two a run, the oldest still P at the provider: taking the oldest first every run would
    // never reach the newest. In turn, the run that reaches it is the last of ⌈n / 2⌉.
    const runs = Math.ceil(pending.length / 2);
    for (let run = 1; run <= runs; run++) {
      expect(await stored(newest), `before run ${run}`).toBe("P");
      await tick(`run ${run} of ${runs}`, "1h", { RECONCILER_FOLLOW_LIMIT: "2" });
    }
    expect(await stored(newest)).toBe("F");
  }, 120_000);

  it("follows a card operation that settles after the lookback to S", async () => {
    const { sandbox } = generated;
    await sandbox.admin.configure({ settleDelayMs: 300 * 24 * HOUR });
    const cards = (await (await fetch(`${sandbox.url}/__sandbox/issuing/cards`)).json()) as {
      cards: { cardId: string; status: string }[];
    };
    const card = cards.cards.find((c) => c.status === "ACTIVE");
    if (!card) throw new Error("no active card");
    // The sandbox's clock stands 2 h behind the worker's: the deposit is older than the lookback.
    const ctx = sandboxSyncContext(db, generated);
    const { operateRecordId } = await ctx.issuing.cards.deposit({
      cardId: card.cardId,
      amount: "5.00",
    });
    // Read once by a window (a lookback reaching back to it); then no window lists it again.
    await tick("a deposit accepted (P)", "1d");
    const status = async () =>
      (
        await queryText<{ status: string }>(
          db,
          `SELECT status FROM operate_records WHERE operate_record_id = '${operateRecordId}'`,
        )
      )[0]?.status;
    expect(await status()).toBe("P");

    const res = await fetch(
      `${sandbox.url}/__sandbox/issuing/operations/${operateRecordId}/settle`,
      { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" },
    );
    expect(res.status).toBe(200);
    const { sync } = await tick("the deposit settled");
    expect(sync.streams.operate_records?.updated).toBe(1);
    expect(await status()).toBe("S");
  }, 120_000);
});
