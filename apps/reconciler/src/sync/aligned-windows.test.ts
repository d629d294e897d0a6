// Failed windows keep their bounds from run to run (docs/reconciler.md, "Windows"): a window is
// recorded in sync_windows on the window-size grid, also when the run read only part of it
// (from watermark − lookback, up to now), so a later run that fails again counts another
// attempt on the same row instead of recording a new, overlapping one; once the fault clears,
// one sync reads them all and nothing is missing.
import { describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { takeWindowsToRetry } from "../store/sync-windows";
import { testBackends } from "../testing/databases";
import {
  type GeneratedSandbox,
  sandboxSyncContext,
  storedOf,
  truthOf,
  useSandboxDatabase,
} from "../testing/sandbox";
import { runSync } from "./run-sync";

const TXN_LIST = "/api/v1/merchant/queryTxnList";
const HOUR = 3_600_000;
const SETTINGS = {
  RECONCILER_WINDOW: "1h",
  RECONCILER_LOOKBACK: "5h",
  RECONCILER_MAX_RETRIES: "0",
};
const CARDS_ONLY = { streams: ["card_transactions" as const] };
const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1_100));

describe.each(testBackends())("failed windows on %s", (kind) => {
  let db: Db;
  let generated: GeneratedSandbox;
  // Records up to an hour before real time: the lookback reaches them.
  const generate = { cardTransactions: 400, cards: 5, days: 2, behindMs: HOUR };
  useSandboxDatabase(kind, generate, (database, sandbox) => {
    db = database.db;
    generated = sandbox;
  });

  const unreadRows = async () =>
    (await takeWindowsToRetry(db, { stream: "card_transactions" })).map((w) => ({
      start: w.start.getTime(),
      end: w.end.getTime(),
      attempts: w.attempts,
    }));

  it("are recorded on the window grid, once, and retried with the same bounds", async () => {
    const { sandbox } = generated;
    const first = await runSync(sandboxSyncContext(db, generated, SETTINGS), CARDS_ONLY);
    expect(first.outcome).toBe("ok");

    await sandbox.admin.faults().catch(() => undefined);
    await sandbox.admin.injectFault({ path: TXN_LIST, kind: "http_status", status: 503 });
    const runs: Awaited<ReturnType<typeof unreadRows>>[] = [];
    for (let run = 0; run < 3; run++) {
      await nextSecond();
      const summary = await runSync(sandboxSyncContext(db, generated, SETTINGS), CARDS_ONLY);
      expect(summary.streams.card_transactions?.outcome).toBe("failed");
      const rows = await unreadRows();
      // Aligned to the hour, both ends (the run read from watermark − 5 h, up to now).
      for (const row of rows) {
        expect(row.start % HOUR, new Date(row.start).toISOString()).toBe(0);
        expect(row.end % HOUR, new Date(row.end).toISOString()).toBe(0);
      }
      // No two overlap.
      for (let i = 1; i < rows.length; i++)
        expect(rows[i]?.start).toBeGreaterThanOrEqual(rows[i - 1]?.end as number);
      expect(summary.unread?.count).toBe(rows.length);
      runs.push(rows);
    }
    // The windows of the first failing run are the same rows, one failed attempt per run.
    const [firstFailing, , last] = runs;
    for (const row of firstFailing ?? [])
      expect(last).toContainEqual({ start: row.start, end: row.end, attempts: 3 });
    // Only an hour boundary passed between the runs may add one (the hour just begun).
    expect((last?.length ?? 0) - (firstFailing?.length ?? 0)).toBeLessThanOrEqual(1);

    await sandbox.admin.clearFaults();
    const healed = await runSync(sandboxSyncContext(db, generated, SETTINGS), CARDS_ONLY);
    expect(healed.outcome).toBe("ok");
    expect(healed.unread).toEqual({ count: 0, since: null });
    expect((await storedOf(db)).cardTransactions).toEqual(
      (await truthOf(sandbox)).cardTransactions,
    );
  }, 120_000);
});
