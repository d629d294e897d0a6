// Every statement of a run is as cheap as its share of the records: no statement loops over a
// table scanning another whole table for each row. Each statement of a first (full) run and of
// an incremental run after a realistic change (pending authorizations settled, ledger amounts
// corrected, new records on many cards) is planned with EXPLAIN before it runs, and a nested
// loop whose inner side scans a table without an index fails when the rows it would examine
// (outer rows × rows scanned) pass a budget of k × the records the run matches; one rescanning
// a CTE fails whatever its estimate (a CTE has no statistics: testing/plan-loops.ts). This holds for
// every pass, including ones added later: the scoped copies carry the real tables' indexes on
// the columns the passes name (incremental/scoped-tables.ts), so a pass probing a real index
// probes its copy too. The matching bench plans a first run's statements at 1,000,000 records.
import { addDecimal } from "@merchantkit/core";
import type { GroundTruth, RunningSandbox } from "@merchantkit/sandbox";
import { describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { importLedger } from "../ledger/import-ledger";
import { writeLedger } from "../testing";
import { testBackends } from "../testing/databases";
import { storeGroundTruth } from "../testing/ground-truth";
import { collectScanningLoops } from "../testing/plan-loops";
import { generatedTruth, useSandboxAndDatabase } from "../testing/sandbox-database";
import { runMatch } from "./run-match";

const AS_OF = Date.parse("2026-06-01T00:00:00Z");
const DAY = 86_400_000;
/** Rows a statement may examine per record the run matches. */
const K = 20;

describe.each(testBackends())("statement plans on %s", (kind) => {
  let db: Db;
  let sandbox: RunningSandbox;
  useSandboxAndDatabase(kind, (opened) => {
    ({ db, sandbox } = opened);
  });

  // The generated top-ups' serviceIds would make the run incomplete (not built on) until the
  // account stream fetched them; this test is about the passes, not the sync.
  const everyServiceIdFetched = () =>
    queryText(db, "UPDATE service_ids SET fetched_at = now() WHERE fetched_at IS NULL");

  it("examine at most k rows per record matched, first run and incremental", async () => {
    let truth = await generatedTruth(sandbox, AS_OF - 2 * DAY, {
      seed: 7,
      cards: 200,
      cardTransactions: 6_000,
      days: 30,
    });
    const ledger = writeLedger(truth, { seed: 7, asOf: AS_OF - 2 * DAY });
    await storeGroundTruth(db, truth, new Date(AS_OF - 2 * DAY));
    await importLedger(db, ledger.csv, { sourceFile: "first.csv" });

    const { loops, explain, over } = collectScanningLoops();
    const options = { maxSyncLagMs: 30 * DAY, maxScopeShare: 1, explain };
    await everyServiceIdFetched();
    const first = await runMatch(db, { ...options, asOf: new Date(AS_OF - 2 * DAY) });
    expect(first.incremental).toBe(false);
    const records = first.stats.providerItems + first.stats.ledgerEntries;
    const firstBudget = K * records;
    expect(over(firstBudget)).toEqual([]);

    // A day later on the sandbox's clock (pending authorizations settled or reversed, late
    // clearings), and one ledger entry in 5 corrected by a cent.
    loops.length = 0;
    await sandbox.admin.advanceClock(DAY);
    truth = (await sandbox.admin.state()) as unknown as GroundTruth;
    await storeGroundTruth(db, truth, new Date(AS_OF - DAY));
    const corrected = ledger.csv
      .split("\n")
      .map((line, i) =>
        i > 0 && i % 5 === 0
          ? line.replace(
              /,(-?\d+\.\d\d),/,
              (_, amount: string) => `,${addDecimal(amount, "0.01")},`,
            )
          : line,
      )
      .join("\n");
    await importLedger(db, corrected, { sourceFile: "corrected.csv" });
    // Every authorization still pending re-sent by the service (a late change that leaves it
    // P): all of them in the scope, as a day of settlements puts them there.
    await queryText(
      db,
      `UPDATE card_transactions SET txn_status = txn_status
        WHERE txn_type = 'AUTHORIZATION' AND txn_status = 'P'`,
    );
    await everyServiceIdFetched();
    const next = await runMatch(db, { ...options, asOf: new Date(AS_OF - DAY) });
    expect(next.incremental).toBe(true);
    const budget = K * (next.scopeRecords ?? 0);
    const worst = [...loops].sort((a, b) => b.examined - a.examined).slice(0, 5);
    expect(over(budget), `budget ${budget}; worst ${JSON.stringify(worst)}`).toEqual([]);
  });
});
