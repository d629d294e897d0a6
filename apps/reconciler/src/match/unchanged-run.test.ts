// A rerun with nothing changed reuses the last run's results (unchanged-run.ts), but only while
// they are still stored: a Postgres crash empties the unlogged match tables (a promoted standby
// never has them), and reusing then reported the last verdict over empty tables, every
// statement difference "unexplained", exit 0. PGlite and (with DATABASE_URL) a Postgres server.
import { describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { importLedger } from "../ledger/import-ledger";
import { testBackends } from "../testing/databases";
import { storeOneUnbookedClearing } from "../testing/ground-truth";
import { LEDGER_HEADER } from "../testing/ledger-files";
import { storedResults } from "../testing/stored-results";
import { useTestDatabase } from "../testing/use-database";
import { runMatch } from "./run-match";

const AS_OF = Date.parse("2026-06-01T00:00:00Z");
const CARD = "1953712585351400001";

/** What crash recovery does to the unlogged match tables: empties them, firing no trigger. */
const CRASH_EMPTIES =
  "match_pairs, match_groups, match_group_members, match_totals, match_leftovers";

describe.each(testBackends())("a rerun with nothing changed on %s", (kind) => {
  let db: Db;
  useTestDatabase(kind, (opened) => {
    db = opened.db;
  });

  it("moves an open break's last sighting to the rerun without rewriting its row", async () => {
    await storeOneUnbookedClearing(db, AS_OF, CARD);
    const first = await runMatch(db, { asOf: new Date(AS_OF) });
    // The row's version (xmin) and place (ctid): any UPDATE of it changes both.
    const rowOf = async () =>
      (
        await queryText<{ row: string }>(
          db,
          "SELECT xmin::text || ' ' || ctid::text || ' ' || last_seen_at::text AS row FROM breaks WHERE provider_ref = 'K3'",
        )
      ).map((r) => r.row);
    const seen = async () =>
      queryText<{ seen_ms: string; last_run_id: string }>(
        db,
        `SELECT (extract(epoch FROM s.last_seen_at) * 1000)::bigint::text AS seen_ms,
          s.last_run_id::text AS last_run_id FROM breaks_seen s
          JOIN breaks b USING (break_id) WHERE b.provider_ref = 'K3'`,
      );
    const rowBefore = await rowOf();
    expect(rowBefore).toHaveLength(1);
    expect(await seen()).toEqual([{ seen_ms: String(AS_OF), last_run_id: first.runId }]);

    const later = AS_OF + 60_000;
    const rerun = await runMatch(db, { asOf: new Date(later) });
    expect(rerun.reusedRunId).toBe(first.runId);
    expect(await seen()).toEqual([{ seen_ms: String(later), last_run_id: rerun.runId }]);
    expect(await rowOf()).toEqual(rowBefore);

    // An incremental run whose scope the break is outside (an entry booking a key nothing
    // else names, far from its amount) sees it too, and leaves its row alone.
    const booked = new Date(AS_OF - 86_400_000).toISOString();
    await importLedger(
      db,
      `${LEDGER_HEADER}\nE9,card_transaction,X9,-50.00,USD,${booked},,${CARD},\n`,
    );
    const incremental = await runMatch(db, { asOf: new Date(later + 60_000), maxScopeShare: 1 });
    expect(incremental.incremental).toBe(true);
    expect(await seen()).toEqual([
      { seen_ms: String(later + 60_000), last_run_id: incremental.runId },
    ]);
    expect(await rowOf()).toEqual(rowBefore);
  });

  it("matches again instead of reusing results a crash emptied", async () => {
    // K1 and K2 booked; K3 is missing in the ledger: one open break.
    await storeOneUnbookedClearing(db, AS_OF, CARD);
    const asOf = new Date(AS_OF);
    const first = await runMatch(db, { asOf });
    const before = await storedResults(db);
    expect(before.pairs).toHaveLength(2);

    // Still stored: the rerun reuses them.
    expect((await runMatch(db, { asOf })).reusedRunId).toBe(first.runId);

    await queryText(db, `TRUNCATE ${CRASH_EMPTIES}`);
    await queryText(db, "TRUNCATE match_changes");
    const after = await runMatch(db, { asOf });
    expect(after.reusedRunId).toBeNull();
    expect(after.verdict).toBe(first.verdict);
    expect(await storedResults(db)).toEqual(before);
  });
});
