// Nothing lost and nothing silent after an outage longer than the attempt limit: every run
// during it exits non-zero and says how much is unread since when, `status` fails as a health
// check, no window is dropped, and once the fault clears ONE plain sync holds every record of
// the sandbox's ground truth. No lookback, so nothing but the retried windows can bring the
// missed records back.
import { describe, expect, it } from "vitest";
import { readStatus } from "../cli/commands/status";
import type { Db } from "../db/database";
import { EXIT } from "../exit-codes";
import { takeWindowsToRetry } from "../store/sync-windows";
import { testBackends } from "../testing/databases";
import {
  type GeneratedSandbox,
  sandboxSyncContext,
  storedOf,
  truthOf,
  useSandboxDatabase,
} from "../testing/sandbox";
import { exitCodeOf } from "./exit-code";
import { runSync } from "./run-sync";

const TXN_LIST = "/api/v1/merchant/queryTxnList";
const SETTINGS = {
  RECONCILER_LOOKBACK: "0s",
  RECONCILER_WINDOW: "1d",
  RECONCILER_MAX_WINDOW_ATTEMPTS: "2",
  RECONCILER_MAX_RETRIES: "0",
};

describe.each(testBackends())("an outage longer than the attempt limit on %s", (kind) => {
  let db: Db;
  let generated: GeneratedSandbox;
  useSandboxDatabase(kind, { cardTransactions: 1_200, cards: 8, days: 6 }, (database, sandbox) => {
    db = database.db;
    generated = sandbox;
  });

  it("keeps every failed window, exits non-zero each run, then one sync reads them all", async () => {
    const { sandbox } = generated;
    // The admin client's keep-alive socket may have idled out while the database opened: a
    // first cheap call takes the reset, if any, so the fault below is surely installed.
    await sandbox.admin.faults().catch(() => undefined);
    await sandbox.admin.injectFault({ path: TXN_LIST, kind: "http_status", status: 503 });
    let first: string[] = [];
    for (let run = 1; run <= 4; run++) {
      // A second apart, so operation records have a window to read each run (with no lookback
      // a run in the same second as the last has none: every due window failing would then
      // be a failed run, exit 1).
      if (run > 1) await new Promise((resolve) => setTimeout(resolve, 1_100));
      const summary = await runSync(sandboxSyncContext(db, generated, SETTINGS));
      const card = summary.streams.card_transactions;
      expect(card?.failedWindows).toBeGreaterThan(0);
      // Operation records were read, card transactions were not: data unread, not "ok".
      expect(exitCodeOf(summary)).toBe(EXIT.unread);
      expect(summary.unread?.count).toBeGreaterThan(0);
      expect(summary.unread?.since).toBe(new Date(generated.start - 86_400_000).toISOString());
      // Every window is still to read, however many times it failed.
      const due = await takeWindowsToRetry(db, { stream: "card_transactions" });
      expect(due.length).toBe(card?.unread?.count);
      // (Each run also adds the few seconds since the last one as a new window.)
      if (run === 1) first = due.map((w) => w.start.toISOString());
      const kept = due.filter((w) => first.includes(w.start.toISOString()));
      expect(kept.map((w) => w.attempts)).toEqual(first.map(() => run));
    }
    const during = await readStatus(db);
    const cardStatus = during.find((s) => s.stream === "card_transactions");
    expect(cardStatus?.unread.count).toBeGreaterThan(0);
    expect(cardStatus?.unread.since).not.toBeNull();

    // The outage ends; new records arrive meanwhile too.
    await sandbox.admin.clearFaults();
    await sandbox.admin.advanceClock(3_600_000);
    const truth = await truthOf(sandbox);
    const after = await runSync(sandboxSyncContext(db, generated, SETTINGS));
    expect(after.outcome).toBe("ok");
    expect(after.unread).toEqual({ count: 0, since: null });
    expect(exitCodeOf(after)).toBe(EXIT.ok);
    expect(await storedOf(db)).toEqual(truth);
    const healthy = await readStatus(db);
    expect(healthy.every((s) => s.unread.count === 0)).toBe(true);
  }, 180_000);

  it("a run that reads its own new windows still exits non-zero while an older one is unread", async () => {
    const { sandbox } = generated;
    await sandbox.admin.clearFaults();
    const fail = (count: number) =>
      sandbox.admin.injectFault({ path: TXN_LIST, kind: "http_status", status: 500, count });
    const oneAtATime = { ...SETTINGS, RECONCILER_CONCURRENCY: "1" };
    // Whole seconds apart, so each run has exactly one new window after the watermark.
    const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1_100));
    await nextSecond();
    // Run 1: its only new window (the seconds since the last run) fails.
    await fail(1);
    const first = await runSync(sandboxSyncContext(db, generated, oneAtATime));
    expect(first.streams.card_transactions?.failedWindows).toBe(1);
    expect(exitCodeOf(first)).toBe(EXIT.unread);
    // Run 2: the old window is retried first and fails again; the new one is read.
    await nextSecond();
    await fail(1);
    const second = await runSync(sandboxSyncContext(db, generated, oneAtATime));
    const card = second.streams.card_transactions;
    expect(card?.failedWindows).toBe(1);
    // The retried window, the new one, and the follow-up of records still P from before them.
    expect(card?.windows).toBe(3);
    expect(second.unread?.count).toBe(1);
    expect(exitCodeOf(second)).toBe(EXIT.unread);
    // Run 3: nothing in the way; every record is there.
    const third = await runSync(sandboxSyncContext(db, generated, SETTINGS));
    expect(exitCodeOf(third)).toBe(EXIT.ok);
    expect(await storedOf(db)).toEqual(await truthOf(sandbox));
  }, 120_000);
});
