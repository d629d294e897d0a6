// The tolerant pass (passes/tolerant.ts) assigns closest first: an entry whose closest record
// goes to a closer pair is proposed its next closest record within the tolerance, if free.
// PGlite and (with DATABASE_URL) a Postgres server.
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
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const CARD = "1953712585351400001";

function truth(): GroundTruth {
  const clearing = (txnOrderNo: string, amount: string) =>
    settledClearing({ cardId: CARD, txnOrderNo, amount, at: AS_OF - 3 * DAY });
  return cardTransactionsTruth([clearing("P1", "100.00"), clearing("P2", "100.50")]);
}

describe.each(testBackends())("tolerant proposals on %s", (kind) => {
  let db: Db;
  useTestDatabase(kind, (opened) => {
    db = opened.db;
  });

  it("proposes an entry whose closest record went to a closer pair its next closest", async () => {
    await storeGroundTruth(db, truth(), new Date(AS_OF));
    const at = iso(AS_OF - 3 * DAY);
    await importLedger(
      db,
      [
        LEDGER_HEADER,
        `E1,card_transaction,WRONG-1,-100.10,USD,${at},,${CARD},`,
        `E2,card_transaction,WRONG-2,-100.05,USD,${at},,${CARD},`,
      ].join("\n"),
    );
    const run = await runMatch(db, { asOf: new Date(AS_OF), maxSyncLagMs: 30 * DAY });
    expect(run.reasons).toEqual([]);
    const breaks = await queryText<{
      class: string;
      entry_id: string | null;
      provider_ref: string;
    }>(
      db,
      `SELECT class, entry_id, provider_ref FROM breaks WHERE status <> 'resolved'
       ORDER BY class, entry_id, provider_ref`,
    );
    // Closest first: E2–P1 (0.05), then E1–P2 (0.40), both within the 1.00 tolerance; E1's
    // closest, P1 (0.10), went to E2.
    expect(breaks.map((b) => `${b.class}:${b.entry_id}:${b.provider_ref}`)).toEqual([
      "proposed_match:E1:P2",
      "proposed_match:E2:P1",
    ]);
  }, 60_000);
});
