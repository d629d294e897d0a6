// A match run whose lapse check fails rolls back whole: it is not reused, and the next run
// writes the breaks again and lapses the acceptance the change no longer fits. (The check used
// to run after the run was recorded reusable, so the next run reused it and never lapsed it.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { runMatch } from "../match/run-match";
import { TEST_AS_OF } from "../testing/breaks";
import { openTestDatabase, type TestDatabase, testBackends } from "../testing/databases";
import { applyBreakAction } from "./break-actions";
import { showBreak } from "./break-queries";

describe.each(testBackends())("a failed lapse check on %s", (kind) => {
  let database: TestDatabase;
  let db: Db;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
  }, 120_000);
  afterAll(async () => {
    await database?.dispose();
  });

  it("is done again by the next run", async () => {
    // Synced up to as_of: the runs are complete, so an unchanged one reuses the last.
    const at = TEST_AS_OF.toISOString();
    await queryText(
      db,
      `INSERT INTO sync_watermarks (stream, watermark) VALUES
        ('card_transactions', '${at}'), ('operate_records', '${at}')`,
    );
    await queryText(
      db,
      `INSERT INTO ledger_entries (entry_id, kind, provider_ref, amount, currency, booked_at) VALUES
        ('L-1', 'card_transaction', 'T-1', -1250.50, 'EUR', '2026-05-01T10:00:00Z')`,
    );
    expect((await runMatch(db, { asOf: TEST_AS_OF })).reasons).toEqual([]);
    const [b] = await queryText<{ break_id: string }>(db, "SELECT break_id FROM breaks");
    const id = b?.break_id as string;
    await applyBreakAction(db, { breakId: id, action: "accept", actor: "alice", text: "ok" });

    // The lapse check fails once (as a dropped connection or a statement timeout would).
    await queryText(
      db,
      `CREATE FUNCTION fail_lapse() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN IF NEW.action = 'lapse' THEN RAISE EXCEPTION 'lapse failed'; END IF; RETURN NEW; END $$`,
    );
    await queryText(
      db,
      "CREATE TRIGGER fail_lapse BEFORE INSERT ON break_actions FOR EACH ROW EXECUTE FUNCTION fail_lapse()",
    );
    await queryText(db, "UPDATE ledger_entries SET amount = -1300.50 WHERE entry_id = 'L-1'");
    await expect(runMatch(db, { asOf: TEST_AS_OF })).rejects.toThrow();
    await queryText(db, "DROP TRIGGER fail_lapse ON break_actions");
    // Rolled back with it: the break still has the amount that was accepted.
    expect((await showBreak(db, id))?.break).toMatchObject({
      status: "accepted",
      amount: "1250.50",
    });

    const next = await runMatch(db, { asOf: TEST_AS_OF });
    expect(next.reusedRunId).toBeNull();
    const detail = await showBreak(db, id);
    expect(detail?.break).toMatchObject({ status: "open", amount: "1300.50" });
    expect(detail?.history.at(-1)).toMatchObject({ actor: "reconciler", action: "lapse" });
  }, 120_000);
});
