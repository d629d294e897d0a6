// The change log under a concurrent writer: an incremental run waits for a writer whose change
// is in the log, takes that change, and leaves none behind or lost. Postgres server only:
// PGlite serves one connection, so no writer can run beside a match.
import type { GroundTruth } from "@merchantkit/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isTrue, queryText } from "../../db/query-rows";
import { openTestDatabase, type TestDatabase, testBackends } from "../../db/test-databases";
import { importLedger } from "../../ledger/import-ledger";
import { runMatch } from "../run-match";
import { storeGroundTruth } from "../test-ground-truth";

const AS_OF = Date.parse("2026-06-01T00:00:00Z");
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const HEADER = "entry_id,kind,provider_ref,amount,currency,booked_at,fee_type,card_id,description";

// Ten settled clearings, each booked by one entry: enough records for a scope of a few.
const CLEARINGS = Array.from({ length: 10 }, (_, i) => i + 1);
const truth = {
  ledger: { transactions: [] },
  areas: {
    issuing: {
      cardTransactions: CLEARINGS.map((i) => ({
        cardId: "1953712585351400001",
        cardCurrency: "USD",
        txnType: "CLEARING",
        txnStatus: "S",
        txnOrderNo: `C${i}`,
        transactionTime: AS_OF - 2 * DAY,
        cardAmount: `${i}.00`,
        settleAmount: `${i}.00`,
        settleCurrency: "USD",
        settleTime: AS_OF - 2 * DAY,
      })),
    },
  },
} as unknown as GroundTruth;
const ENTRIES = CLEARINGS.map(
  (i) => `E${i},card_transaction,C${i},-${i}.00,USD,${iso(AS_OF - DAY)},,,`,
).join("\n");

describe.each(testBackends().filter((kind) => kind === "postgres"))(
  "the change log on %s",
  (kind) => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await openTestDatabase(kind);
    }, 60_000);
    afterAll(() => database?.dispose());

    it("waits for a writer whose change is in the log and takes its change", async () => {
      const { db } = database;
      const options = { asOf: new Date(AS_OF), maxSyncLagMs: 30 * DAY };
      await storeGroundTruth(db, truth, new Date(AS_OF));
      await importLedger(db, `${HEADER}\n${ENTRIES}`);
      await runMatch(db, { ...options, full: true });

      // A committed change, so the run does not merely reuse the stored results…
      await queryText(db, "UPDATE ledger_entries SET updated_at = now() WHERE entry_id = 'E1'");
      // …and a writer booking an entry the provider does not have, not committed when the run
      // starts: its change is in the log, invisible to the run until it commits.
      const other = await database.openAnother();
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let inserted = () => {};
      const wrote = new Promise<void>((resolve) => {
        inserted = resolve;
      });
      const writer = other.db.transaction(async (tx) => {
        await queryText(
          tx,
          `INSERT INTO ledger_entries (entry_id, kind, provider_ref, amount, currency, booked_at)
         VALUES ('X1', 'card_transaction', 'NOPE', -5.00, 'USD', '${iso(AS_OF - DAY)}')`,
        );
        inserted();
        await released;
      });
      try {
        await wrote;
        const run = runMatch(db, options);
        // The run waits for the writer's lock on the log…
        for (let i = 0; ; i++) {
          const [row] = await queryText<{ waiting: boolean | string }>(
            db,
            `SELECT EXISTS (SELECT 1 FROM pg_locks
             WHERE relation = 'match_changes'::regclass AND NOT granted) AS waiting`,
          );
          if (isTrue(row?.waiting)) break;
          if (i === 200) throw new Error("the run did not wait for the writer");
          await new Promise((r) => setTimeout(r, 25));
        }
        // …and, once the writer commits, takes its change: the entry is matched in this run.
        release();
        await writer;
        const result = await run;
        expect(result.incremental).toBe(true);
        const breaks = await queryText<{ entry_id: string; class: string }>(
          db,
          "SELECT entry_id, class FROM breaks WHERE status <> 'resolved' ORDER BY entry_id",
        );
        expect(breaks).toEqual([{ entry_id: "X1", class: "missing_at_provider" }]);
        expect(await queryText(db, "SELECT kind, ref FROM match_changes")).toEqual([]);
      } finally {
        release();
        await writer.catch(() => undefined);
        await other.close();
      }
    }, 60_000);
  },
);
