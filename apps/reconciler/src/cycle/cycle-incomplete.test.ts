// An incomplete tick (the sync behind): its match keeps nothing, so the summary's openBreaks and
// pendingItems are what the tables hold after it (the last complete run's), not the figures the
// rolled-back match would have written, and the summary says it was rolled back.
import { describe, expect, it } from "vitest";
import { queryText } from "../db/query-rows";
import { EXIT } from "../exit-codes";
import { printedCycle } from "../testing/cycle";
import { type TestDatabase, temporaryFolder, testBackends } from "../testing/databases";
import { dropLedgerFile, LEDGER_HEADER } from "../testing/ledger-files";
import { useTestDatabase } from "../testing/use-database";

// Both ways an incomplete run matches: all of it (its figures off its work tables), or the
// changes alone (it writes its scope's results in a savepoint to read its figures, then takes
// them back); maxScopeShare picks the way on these few records.
describe.each(
  testBackends().flatMap((kind) => [
    { kind, mode: "full", maxScopeShare: 0 },
    { kind, mode: "incremental", maxScopeShare: 1 },
  ]),
)("an incomplete cycle's summary on $kind, $mode match", ({ kind, mode, maxScopeShare }) => {
  let database: TestDatabase;
  useTestDatabase(kind, (opened) => {
    database = opened;
  });

  it("prints the breaks the tables hold and says the match was rolled back", async () => {
    const folder = temporaryFolder("cycle-incomplete-");
    try {
      // Ledger entries the provider does not have: open breaks when booked long ago, pending
      // while the provider may still send the record (booked now).
      const now = new Date().toISOString();
      const drop = (name: string, id: string) =>
        dropLedgerFile(
          folder.path,
          name,
          [
            LEDGER_HEADER,
            `${id}-OLD,card_transaction,T-${id}-OLD,-5.00,USD,2026-01-05,,,`,
            `${id}-NEW,card_transaction,T-${id}-NEW,-6.00,USD,${now},,,`,
          ].join("\n"),
        );
      const cycle = () =>
        printedCycle(
          database,
          { ledgerDir: folder.path, ledgerQuery: undefined },
          { maxScopeShare },
        );
      await queryText(
        database.db,
        "INSERT INTO sync_watermarks (stream, watermark) VALUES ('card_transactions', now())",
      );
      // One clearing booked exactly: an incremental run builds on stored pairs.
      await queryText(
        database.db,
        `INSERT INTO card_transactions (txn_order_no, card_id, txn_type, txn_status,
           transaction_time, card_amount, card_currency, settle_amount, settle_currency,
           settle_time, raw, raw_hash, version, source)
         VALUES ('P0', '900', 'CLEARING', 'S', '2026-01-05', 10.00, 'USD', 10.00, 'USD',
           '2026-01-05', '{}', '0', 1, 'sync')`,
      );
      dropLedgerFile(
        folder.path,
        "paired.csv",
        `${LEDGER_HEADER}\nE0,card_transaction,P0,-10.00,USD,2026-01-05,,900,\n`,
      );
      drop("a.csv", "A");
      const complete = await cycle();
      expect(complete.summary).toMatchObject({
        verdict: "breaks",
        openBreaks: 1,
        pendingItems: 1,
        matchRolledBack: false,
      });
      // The sync falls a day behind; two more entries come in.
      await queryText(
        database.db,
        "UPDATE sync_watermarks SET watermark = now() - interval '1 day'",
      );
      drop("b.csv", "B");
      const incomplete = await cycle();
      // It printed 2 open / 2 pending: what the rolled-back match would have written.
      expect(incomplete.summary).toMatchObject({
        verdict: "incomplete",
        reasons: [expect.stringMatching(/^sync lag: card_transactions/)],
        openBreaks: 1,
        pendingItems: 1,
        matchRolledBack: true,
        match: { mode },
      });
      expect(incomplete.code).toBe(EXIT.unread);
      const [held] = await queryText<{ open: string; pending: string }>(
        database.db,
        `SELECT count(*) FILTER (WHERE status = 'open') AS open,
          count(*) FILTER (WHERE status = 'pending') AS pending FROM breaks`,
      );
      expect(held).toEqual({ open: "1", pending: "1" });
    } finally {
      folder.remove();
    }
  });
});
