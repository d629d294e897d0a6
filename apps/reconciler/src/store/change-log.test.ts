// The change log under a concurrent writer: an incremental run waits for a writer whose change
// is in the log, takes that change, and leaves none behind or lost; a writer left open past
// the run's limit fails the run with ChangeLogBusyError, its change kept for the next run.
// Postgres server only: PGlite serves one connection, so no writer can run beside a match.
import type { GroundTruth } from "@merchantkit/sandbox";
import { beforeAll, describe, expect, it } from "vitest";
import { isTrue, queryText } from "../db/query-rows";
import { importLedger } from "../ledger/import-ledger";
import { runMatch } from "../match/run-match";
import { type TestDatabase, testBackends } from "../testing/databases";
import { storeGroundTruth } from "../testing/ground-truth";
import { useTestDatabase } from "../testing/use-database";
import { ChangeLogBusyError } from "./change-log";

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

/** A step one side of the test waits for and the other reaches. */
function signal(): { done: () => void; reached: Promise<void> } {
  let done = () => {};
  const reached = new Promise<void>((resolve) => {
    done = resolve;
  });
  return { done, reached };
}

describe.each(testBackends().filter((kind) => kind === "postgres"))(
  "the change log on %s",
  (kind) => {
    let database: TestDatabase;
    useTestDatabase(kind, (opened) => {
      database = opened;
    });
    const options = { asOf: new Date(AS_OF), maxSyncLagMs: 30 * DAY };
    const openBreaks = () =>
      queryText<{ entry_id: string; class: string }>(
        database.db,
        "SELECT entry_id, class FROM breaks WHERE status <> 'resolved' ORDER BY entry_id",
      );

    /**
     * A committed change (so a run does not merely reuse the stored results), then a writer on
     * another connection that books `entryId` (an entry the provider does not have) and holds
     * its transaction open until `commit()`: its change is in the log, invisible until then.
     */
    async function openWriter(entryId: string) {
      await queryText(
        database.db,
        "UPDATE ledger_entries SET updated_at = now() WHERE entry_id = 'E1'",
      );
      const other = await database.openAnother();
      const inserted = signal();
      const released = signal();
      const writer = other.db.transaction(async (tx) => {
        await queryText(
          tx,
          `INSERT INTO ledger_entries (entry_id, kind, provider_ref, amount, currency, booked_at)
           VALUES ('${entryId}', 'card_transaction', 'NOPE', -5.00, 'USD', '${iso(AS_OF - DAY)}')`,
        );
        inserted.done();
        await released.reached;
      });
      await inserted.reached;
      // Once: called where the test lets it commit and again, harmlessly, in its finally.
      let closed: Promise<void> | undefined;
      const commit = () => {
        released.done();
        closed ??= writer.then(() => other.close());
        return closed;
      };
      return { commit };
    }

    // Each test starts from these matched records and adds its own writer's entry.
    beforeAll(async () => {
      const { db } = database;
      await storeGroundTruth(db, truth, new Date(AS_OF));
      await importLedger(db, `${HEADER}\n${ENTRIES}`);
      await runMatch(db, { ...options, full: true });
    }, 60_000);

    it("waits for a writer whose change is in the log and takes its change", async () => {
      const { db } = database;
      const writer = await openWriter("X1");
      try {
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
        await writer.commit();
        const result = await run;
        expect(result.incremental).toBe(true);
        expect(await openBreaks()).toEqual([{ entry_id: "X1", class: "missing_at_provider" }]);
        expect(await queryText(db, "SELECT kind, ref FROM match_changes")).toEqual([]);
      } finally {
        await writer.commit();
      }
    }, 60_000);

    it("fails a run held past its wait by a writer left open, and loses none of its change", async () => {
      const { db } = database;
      const before = await openBreaks();
      const writer = await openWriter("X2");
      try {
        const held = runMatch(db, { ...options, changeLogWaitMs: 200 });
        await expect(held).rejects.toBeInstanceOf(ChangeLogBusyError);
        await expect(held).rejects.toThrow(/match_changes.*pg_stat_activity/);
        const [failed] = await queryText<{ reasons: string }>(
          db,
          "SELECT reasons::text AS reasons FROM match_runs ORDER BY started_at DESC LIMIT 1",
        );
        expect(failed?.reasons).toContain("stayed locked by writers");
      } finally {
        await writer.commit();
      }
      // Nothing of the failed run was written; the next run takes the committed change.
      expect(await openBreaks()).toEqual(before);
      const next = await runMatch(db, options);
      expect(next.incremental).toBe(true);
      expect(await openBreaks()).toEqual([
        ...before,
        { entry_id: "X2", class: "missing_at_provider" },
      ]);
    }, 60_000);
  },
);
