// Provider changes that come after a serviceId was read, found by later ticks: a late posting
// under a settled operation's or a payout's serviceId (the re-read schedule), a payout that
// fails after it was read (the payouts stream reveals its serviceId again, so its refund credit
// is read), and a payout the ledger never booked. After every tick, incremental = full.
import type { GroundTruth } from "@merchantkit/sandbox";
import { describe, expect, it } from "vitest";
import { readStatus } from "../cli/commands/status";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { importLedger } from "../ledger/import-ledger";
import { runMatch } from "../match/run-match";
import { writeLedger } from "../testing";
import { testBackends } from "../testing/databases";
import { type GeneratedSandbox, sandboxSyncContext, useSandboxDatabase } from "../testing/sandbox";
import { storedResults } from "../testing/stored-results";
import { runSync } from "./run-sync";

const DAY = 86_400_000;
/**
 * The test's re-read schedule: soon after a change, then not for an hour. The lookback (1 h)
 * leaves the generated payouts (2 h old and more) to the pending-payout follow-up.
 */
const REREAD = "3s,1h";

describe.each(testBackends())("late provider changes on %s", (kind) => {
  let db: Db;
  let generated: GeneratedSandbox;
  useSandboxDatabase(kind, { cards: 4, cardTransactions: 120, days: 3 }, (database, g) => {
    db = database.db;
    generated = g;
  });

  const admin = async (path: string, body: unknown) => {
    const res = await fetch(`${generated.sandbox.url}/__sandbox${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };

  /** Sync every stream, then an incremental match that must equal a full one. */
  async function tick(what: string) {
    const sync = await runSync(
      sandboxSyncContext(db, generated, { RECONCILER_REREAD: REREAD, RECONCILER_LOOKBACK: "1h" }),
    );
    expect(sync.outcome, what).toBe("ok");
    const options = { maxSyncLagMs: 30 * DAY, ledgerGraceMs: 0, maxScopeShare: 1 };
    const run = await runMatch(db, options);
    expect(run.verdict, what).not.toBe("incomplete");
    const after = await storedResults(db);
    await runMatch(db, { ...options, asOf: run.asOf, full: true });
    expect(await storedResults(db), what).toEqual(after);
    return sync;
  }

  /** Open or pending break classes on a provider reference. */
  const breaksOn = async (ref: string) =>
    (
      await queryText<{ class: string }>(
        db,
        `SELECT class FROM breaks WHERE status <> 'resolved' AND provider_ref = '${ref}' ORDER BY class`,
      )
    ).map((b) => b.class);

  /**
   * An hour passes for these serviceIds on the worker's clock: every time the schedule reads
   * moves back an hour (the schedule's steps here are 3 s and 1 h, so each is due after it).
   */
  async function anHourPasses(ids: string[]) {
    const list = ids.map((id) => `'${id}'`).join(", ");
    const shifted = await queryText<{ due: string }>(
      db,
      `UPDATE service_ids SET revealed_at = revealed_at - interval '1 hour',
         postings_changed_at = postings_changed_at - interval '1 hour',
         fetched_at = fetched_at - interval '1 hour', reread_at = reread_at - interval '1 hour'
       WHERE service_id IN (${list}) RETURNING (reread_at <= now())::text AS due`,
    );
    expect(shifted.map((r) => r.due)).toEqual(ids.map(() => "true"));
  }

  it("finds late postings, a payout failing after it was read, and an unbooked payout", async () => {
    // Payouts that stay P until the test settles one.
    await generated.sandbox.admin.configure({ settleDelayMs: 300 * DAY });
    await admin("/payout/generate", { seed: 5, payouts: 6, days: 2 });
    const truth = (await generated.sandbox.admin.state()) as unknown as GroundTruth;
    const csv = writeLedger(truth, { seed: 5, discrepancies: [] }).csv;
    const lines = csv.trimEnd().split("\n");
    const columns = (lines[0] as string).split(",");
    const refColumn = columns.indexOf("provider_ref");
    const amountColumn = columns.indexOf("amount");
    /** The ledger without the entries on `refs`, as the merchant's whole file. */
    const ledgerWithout = (refs: string[]) =>
      importLedger(
        db,
        lines.filter((l) => !refs.includes(l.split(",")[refColumn] as string)).join("\n"),
        { sourceFile: "ledger.csv", complete: true },
      );

    // Tick 1: payouts are read from the payouts stream, so their serviceIds are known even when
    // the ledger books none of them; payout B the ledger never books.
    await ledgerWithout([]);
    await tick("first tick (everything booked)");
    const read = await queryText<{
      payout_id: string;
      payout_status: string;
      source_currency: string;
    }>(db, "SELECT payout_id, payout_status, source_currency FROM payouts ORDER BY payout_id");
    expect(read.length).toBe(6);
    expect(new Set(read.map((p) => p.payout_status))).toEqual(new Set(["P"]));
    const [a, b, c] = read as [(typeof read)[0], (typeof read)[0], (typeof read)[0]];
    for (const p of read) expect(await breaksOn(p.payout_id)).toEqual([]);
    // Every fetched id is inside its re-read period, as status and finance_sync_health say.
    const rereads = (await readStatus(db)).find(
      (x) => x.stream === "account_transactions",
    )?.rereads;
    const [health] = await queryText<{ service_ids_rereading: string; fetched: string }>(
      db,
      `SELECT service_ids_rereading::text,
         (SELECT count(*) FROM service_ids WHERE fetched_at IS NOT NULL)::text AS fetched
       FROM finance_sync_health WHERE stream = 'account_transactions'`,
    );
    expect(rereads?.inPeriod).toBe(Number(health?.fetched));
    expect(health?.service_ids_rereading).toBe(health?.fetched);
    expect(rereads?.oldestLastRead).not.toBeNull();
    await ledgerWithout([b.payout_id]);
    await tick("payout B unbooked");
    expect(await breaksOn(b.payout_id)).toEqual(["missing_in_ledger"]);

    // A late 0.01 posting under a settled operation's serviceId and under payout C's.
    const [op] = await queryText<{
      operate_record_id: string;
      client_request_id: string;
      currency: string;
    }>(
      db,
      `SELECT o.operate_record_id, o.client_request_id, o.currency FROM operate_records o
       WHERE o.status = 'S' AND o.type = 'DEPOSIT'
         AND EXISTS (SELECT 1 FROM account_transactions t WHERE t.service_id = o.operate_record_id)
       ORDER BY o.operate_record_id LIMIT 1`,
    );
    if (!op) throw new Error("no settled deposit");
    expect(await breaksOn(op.client_request_id)).toEqual([]);
    for (const [serviceId, currency] of [
      [op.operate_record_id, op.currency],
      [c.payout_id, c.source_currency],
    ])
      await admin("/account/postings", {
        direction: "debit",
        currency,
        amount: "0.01",
        serviceId,
        businessType: "ADJUSTMENT",
      });
    await anHourPasses([op.operate_record_id, c.payout_id]);
    const reread = await tick("late postings");
    expect(reread.streams.account_transactions?.serviceIdsReread).toBeGreaterThan(0);
    expect(await breaksOn(op.client_request_id)).toEqual(["cash_leg_mismatch"]);
    expect(await breaksOn(c.payout_id)).toEqual(["amount_mismatch"]);

    // Payout A fails: the service credits PAYOUT_REFUND under its serviceId. A was created
    // before the lookback (1 h here), so no window reads it again: the payouts stream follows
    // pending payouts one by one, which reveals A's serviceId for a new fetch.
    await admin(`/payout/payouts/${a.payout_id}/settle`, { outcome: "F" });
    await tick("payout A failed, ledger still books the debit");
    expect(await breaksOn(a.payout_id)).toEqual(["amount_mismatch"]);
    const [stored] = await queryText<{ payout_status: string }>(
      db,
      `SELECT payout_status FROM payouts WHERE payout_id = '${a.payout_id}'`,
    );
    expect(stored?.payout_status).toBe("F");

    // The ledger books the failure (the payout's entry set to 0.00): no break is left on A.
    const zeroed = lines.map((l) => {
      const cells = l.split(",");
      if (cells[refColumn] !== a.payout_id) return l;
      cells[amountColumn] = "0.00";
      return cells.join(",");
    });
    await importLedger(
      db,
      zeroed.filter((l) => l.split(",")[refColumn] !== b.payout_id).join("\n"),
      { sourceFile: "ledger.csv", complete: true },
    );
    await tick("ledger books payout A's failure");
    expect(await breaksOn(a.payout_id)).toEqual([]);
    expect(await breaksOn(b.payout_id)).toEqual(["missing_in_ledger"]);
  }, 180_000);
});
