// An incremental run's valid_until (unchanged-run.ts) counts every pending authorization, not
// only those of its scope: it is computed while the scope's temporary copy named
// card_transactions still exists, and a rerun with nothing changed must not reuse results past
// the moment an authorization outside the scope goes stale. PGlite and (with DATABASE_URL) a
// Postgres server.
import type { GroundTruth } from "@merchantkit/sandbox";
import { describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { importLedger } from "../ledger/import-ledger";
import { testBackends } from "../testing/databases";
import { cardTransactionsTruth, settledClearing, storeGroundTruth } from "../testing/ground-truth";
import { LEDGER_HEADER } from "../testing/ledger-files";
import { useTestDatabase } from "../testing/use-database";
import { runMatch } from "./run-match";

const AS_OF = Date.parse("2026-06-01T00:00:00Z");
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();
const CARD = "1953712585351400001";

function truth(): GroundTruth {
  const clearings = Array.from({ length: 12 }, (_, i) =>
    settledClearing({
      cardId: CARD,
      txnOrderNo: `K${i}`,
      amount: `${10 + i}.00`,
      at: AS_OF - 3 * DAY,
    }),
  );
  return cardTransactionsTruth([
    ...clearings,
    {
      cardId: CARD,
      cardCurrency: "USD",
      txnType: "AUTHORIZATION",
      txnStatus: "P",
      txnOrderNo: "A-STALE",
      transactionTime: AS_OF - 6 * DAY - 12 * HOUR,
      cardAmount: "40.00",
    },
  ]);
}

const line = (id: string, ref: string, amount: string) =>
  `${id},card_transaction,${ref},${amount},USD,${iso(AS_OF - 3 * DAY)},,${CARD},`;
const HEAD = LEDGER_HEADER;

describe.each(testBackends())("valid_until of an incremental run on %s", (kind) => {
  let db: Db;
  useTestDatabase(kind, (opened) => {
    db = opened.db;
  });

  it("a rerun with no changes still raises the stale authorization", async () => {
    await storeGroundTruth(db, truth(), new Date(AS_OF));
    // Every clearing booked but K11 (missing_in_ledger, open).
    const lines = Array.from({ length: 11 }, (_, i) => line(`E${i}`, `K${i}`, `-${10 + i}.00`));
    await importLedger(db, [HEAD, ...lines].join("\n"));
    const opts = { maxSyncLagMs: 30 * DAY, maxScopeShare: 1 };
    const first = await runMatch(db, { ...opts, asOf: new Date(AS_OF), full: true });
    expect(first.reasons).toEqual([]);
    const [r1] = await queryText<{ v: string }>(
      db,
      `SELECT valid_until::text AS v FROM match_runs WHERE id = '${first.runId}'`,
    );
    // The authorization goes stale at AS_OF + 12h.
    expect(new Date(r1?.v ?? "").getTime()).toBe(AS_OF + 12 * HOUR);

    // An unrelated correction: K11 booked. An incremental run an hour later.
    await importLedger(db, [HEAD, line("E11", "K11", "-21.00")].join("\n"));
    const second = await runMatch(db, { ...opts, asOf: new Date(AS_OF + HOUR) });
    expect(second.incremental).toBe(true);
    const [r2] = await queryText<{ v: string | null }>(
      db,
      `SELECT valid_until::text AS v FROM match_runs WHERE id = '${second.runId}'`,
    );
    // K11 was the scope; the authorization outside it still goes stale at AS_OF + 12h.
    expect(new Date(r2?.v ?? "").getTime()).toBe(AS_OF + 12 * HOUR);

    // A day later, nothing changed: the authorization has been stale for 12 hours.
    const third = await runMatch(db, { ...opts, asOf: new Date(AS_OF + DAY) });
    const stale = await queryText(
      db,
      "SELECT break_id FROM breaks WHERE class = 'stale_authorization' AND status <> 'resolved'",
    );
    expect(third.reusedRunId).toBeNull();
    const full = await runMatch(db, { ...opts, asOf: new Date(AS_OF + DAY), full: true });
    const staleFull = await queryText(
      db,
      "SELECT break_id FROM breaks WHERE class = 'stale_authorization' AND status <> 'resolved'",
    );
    expect(staleFull.length).toBe(1);
    expect(full.stats.breaksByClass.stale_authorization).toBe(1);
    expect(third.stats.breaksByClass.stale_authorization ?? 0).toBe(1);
    expect(stale.length).toBe(1);
  }, 120_000);
});
