// The report's kept figures after an incremental match run, which logs its scope's days once
// (finance_log_scope_days) instead of each write trigger mapping the written pairs and breaks
// to their records' days: ledger corrections turn pairs into breaks, so the figures move on the
// card records' days too, not only on the corrected entries'; the kept report must equal a
// fresh one whole and on every day.
import { addDecimal } from "@merchantkit/core";
import type { RunningSandbox } from "@merchantkit/sandbox";
import { describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { importLedger } from "../ledger/import-ledger";
import { runMatch } from "../match/run-match";
import { writeLedger } from "../testing";
import { testBackends } from "../testing/databases";
import { storeGroundTruth } from "../testing/ground-truth";
import { withoutClock } from "../testing/report-clock";
import { generatedTruth, useSandboxAndDatabase } from "../testing/sandbox-database";
import { loadReport, reportFiguresCache } from "./report-data";

const AS_OF = Date.parse("2026-06-01T00:00:00Z");
const DAY = 86_400_000;

describe.each(testBackends())("the report's kept figures after an incremental run (%s)", (kind) => {
  let db: Db;
  let sandbox: RunningSandbox;
  useSandboxAndDatabase(kind, (opened) => {
    ({ db, sandbox } = opened);
  });

  it("equal a fresh report whole and per day", async () => {
    const truth = await generatedTruth(sandbox, AS_OF - DAY, {
      seed: 11,
      cards: 40,
      cardTransactions: 1_500,
      days: 20,
    });
    const ledger = writeLedger(truth, { seed: 11, asOf: AS_OF - DAY });
    await storeGroundTruth(db, truth, new Date(AS_OF - DAY));
    await importLedger(db, ledger.csv, { sourceFile: "ledger.csv" });
    await queryText(db, "UPDATE service_ids SET fetched_at = now() WHERE fetched_at IS NULL");
    const options = { maxSyncLagMs: 30 * DAY, maxScopeShare: 1, asOf: new Date(AS_OF - DAY) };
    expect((await runMatch(db, options)).incremental).toBe(false);
    const cache = reportFiguresCache();
    await loadReport(db, { cache });

    // Entries booked on one day whose card records are on another, corrected by a cent: the
    // import names that one day; their pairs become amount_mismatch breaks, which moves the
    // figures of their records' days too, and only the run's scope names those.
    const apart = await queryText<{ entry_id: string; record_day: string }>(
      db,
      `WITH e AS (
         SELECT e.entry_id, (e.booked_at AT TIME ZONE 'UTC')::date AS day,
           (coalesce(c.settle_time, c.transaction_time) AT TIME ZONE 'UTC')::date AS record_day
         FROM ledger_entries e JOIN card_transactions c ON c.txn_order_no = e.provider_ref
         JOIN match_pairs p ON p.entry_id = e.entry_id
       ), one AS (SELECT day FROM e WHERE day <> record_day GROUP BY day ORDER BY count(*) DESC, day LIMIT 1)
       SELECT e.entry_id, e.record_day::text AS record_day FROM e JOIN one USING (day)`,
    );
    const corrected = new Set(apart.map((a) => a.entry_id));
    const recordDays = new Set(apart.map((a) => a.record_day));
    expect(recordDays.size).toBeGreaterThan(1);
    await importLedger(
      db,
      ledger.csv
        .split("\n")
        .map((line) =>
          corrected.has(line.slice(0, line.indexOf(",")))
            ? line.replace(/,(-?\d+\.\d\d),/, (_, a: string) => `,${addDecimal(a, "0.01")},`)
            : line,
        )
        .join("\n"),
      { sourceFile: "ledger.csv" },
    );
    const run = await runMatch(db, options);
    expect(run.incremental).toBe(true);
    expect(run.stats.breaksByClass.amount_mismatch ?? 0).toBeGreaterThan(0);

    const kept = await loadReport(db, { cache });
    expect(withoutClock(kept)).toEqual(withoutClock(await loadReport(db)));
    for (const day of recordDays)
      expect(withoutClock(await loadReport(db, { cache, date: day })), day).toEqual(
        withoutClock(await loadReport(db, { date: day })),
      );
  });
});
