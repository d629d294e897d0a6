// A cycle whose sync failed on every stream before any of them could record its run (the
// database cut as each opened or closed its sync_runs row): the sync_runs rows still say the
// last syncs went well, so the matcher's own look at the sync sees nothing wrong. The cycle's
// own sync outcome makes the verdict incomplete all the same, naming the streams, and a fresh
// database with no complete run prints no figures it does not have.
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config/load-config";
import { openDatabase } from "../db/connect";
import { queryText } from "../db/query-rows";
import { EXIT } from "../exit-codes";
import { createSyncContext } from "../sync/sync-context";
import { STREAM_NAMES } from "../sync/sync-types";
import { printedCycle } from "../testing/cycle";
import { type TestDatabase, temporaryFolder, testBackends } from "../testing/databases";
import { dropLedgerFile, LEDGER_HEADER } from "../testing/ledger-files";
import { SANDBOX_KEYS } from "../testing/sandbox";
import { useTestDatabase } from "../testing/use-database";

describe.each(testBackends())("a cycle whose sync failed on every stream, on %s", (kind) => {
  let database: TestDatabase;
  useTestDatabase(kind, (opened) => {
    database = opened;
  });

  it("is incomplete, names the streams and prints null figures before any complete run", async () => {
    const folder = temporaryFolder("cycle-sync-failed-");
    // The sync's own handle on a database that is gone: every stream fails at its first query.
    const gone = await openDatabase({ dataDir: "memory://" });
    await gone.close();
    const sync = createSyncContext(
      loadConfig({ MERCHANTKIT_ENVIRONMENT: "http://127.0.0.1:9", ...SANDBOX_KEYS }),
      gone.db,
      { log: () => {} },
    );
    try {
      // The streams' earlier runs went well and read up to now: nothing in the tables says
      // this cycle's sync failed.
      await queryText(
        database.db,
        `INSERT INTO sync_watermarks (stream, watermark)
         SELECT s, now() FROM unnest(ARRAY['card_transactions', 'operate_records', 'payouts']) s`,
      );
      dropLedgerFile(
        folder.path,
        "a.csv",
        `${LEDGER_HEADER}\nA-1,card_transaction,T-A-1,-5.00,USD,2026-01-05,,,\n`,
      );
      const cycle = (withSync: boolean) =>
        printedCycle(
          database,
          { ledgerDir: folder.path, ledgerQuery: undefined },
          {},
          withSync ? sync : undefined,
        );
      const reasons = STREAM_NAMES.map((stream) =>
        expect.stringContaining(`this cycle's sync of ${stream} ended failed`),
      );

      const first = await cycle(true);
      expect(first.summary).toMatchObject({
        verdict: "incomplete",
        reasons: expect.arrayContaining(reasons),
        sync: { outcome: "failed" },
        // No complete run has written any figures yet.
        openBreaks: null,
        pendingItems: null,
        matchRolledBack: true,
      });
      expect(first.code).toBe(EXIT.failed);

      const complete = await cycle(false);
      expect(complete.summary).toMatchObject({ verdict: "breaks", openBreaks: 1, reasons: [] });

      // Nothing changed since: without the cycle's sync outcome the match reused that run
      // and printed its complete verdict.
      const again = await cycle(true);
      expect(again.summary).toMatchObject({
        verdict: "incomplete",
        reasons: expect.arrayContaining(reasons),
        openBreaks: 1,
        pendingItems: 0,
        matchRolledBack: true,
      });
      expect(again.summary.match.mode).not.toBe("reused");
      expect(again.code).toBe(EXIT.failed);
      const [latest] = await queryText<{ verdict: string }>(
        database.db,
        "SELECT verdict FROM match_runs ORDER BY started_at DESC LIMIT 1",
      );
      expect(latest?.verdict).toBe("incomplete");
    } finally {
      folder.remove();
    }
  });
});
