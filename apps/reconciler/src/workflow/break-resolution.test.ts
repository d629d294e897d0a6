// A resolved break says when and why: the run that resolved it, at its time, and whether its
// records now match (the ledger corrected) or left (the entry deleted); breaks show prints it as
// the last line of the history. A break that is not resolved has no resolution; a resolved one
// takes comments only.
import { describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { runMatch } from "../match/run-match";
import { testBackends } from "../testing/databases";
import { useTestDatabase } from "../testing/use-database";
import { applyBreakAction } from "./break-actions";
import { showBreak } from "./break-queries";
import { breakResolution } from "./break-resolution";
import { WorkflowError } from "./workflow-error";

const DAY = 86_400_000;
const T = Date.parse("2026-05-01T12:00:00Z");
const at = (days: number) => new Date(T + days * DAY).toISOString();
const AS_OF = new Date(T + 30 * DAY);

describe.each(testBackends())("a resolved break's resolution on %s", (kind) => {
  let db: Db;
  useTestDatabase(kind, (opened) => {
    db = opened.db;
  });
  const options = { asOf: AS_OF, onIncomplete: "all" as const };
  const breakOf = async (entryId: string) =>
    (
      await queryText<{ break_id: string }>(
        db,
        `SELECT break_id FROM breaks WHERE entry_id = '${entryId}'`,
      )
    )[0]?.break_id as string;

  it("names the run, its time, and whether the records now match or left", async () => {
    await queryText(
      db,
      `INSERT INTO card_transactions (txn_order_no, card_id, txn_type, txn_status, transaction_time,
         card_amount, card_currency, settle_amount, settle_currency, settle_time, raw, raw_hash,
         version, source)
       VALUES ('C1', '900', 'CLEARING', 'S', '${at(0)}', 10.00, 'USD', 10.00, 'USD', '${at(0)}',
         '{}', '0', 1, 'sync')`,
    );
    await queryText(
      db,
      `INSERT INTO ledger_entries (entry_id, kind, provider_ref, amount, currency, booked_at, card_id)
       VALUES ('E1', 'card_transaction', 'C1', -11.00, 'USD', '${at(0)}', '900'),
              ('E2', 'card_transaction', 'C2', -5.00, 'USD', '${at(0)}', '900')`,
    );
    await runMatch(db, options);
    const mismatch = await breakOf("E1");
    const orphan = await breakOf("E2");
    expect(await breakResolution(db, mismatch)).toBeUndefined();

    await queryText(db, "UPDATE ledger_entries SET amount = -10.00 WHERE entry_id = 'E1'");
    await queryText(db, "DELETE FROM ledger_entries WHERE entry_id = 'E2'");
    const run = await runMatch(db, options);

    const fixed = await showBreak(db, mismatch);
    expect(fixed?.break.status).toBe("resolved");
    expect(fixed?.resolution).toEqual({
      at: AS_OF.toISOString().replace(".000Z", "Z"),
      runId: run.runId,
      why: "the run no longer finds this difference: entry E1 and C1 now match (exact:card_transaction:C1)",
    });
    expect((await breakResolution(db, orphan))?.why).toBe(
      "the run no longer finds this difference: entry E2 and C2 changed or left",
    );
    // Only comments: nothing to accept, assign or write off on a resolved break.
    for (const action of ["accept", "assign"] as const) {
      const refused = await applyBreakAction(db, {
        breakId: orphan,
        action,
        actor: "ann",
        text: action === "assign" ? "ann" : "x",
      }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(WorkflowError);
      expect((refused as WorkflowError).message).toMatch(/is resolved: .*takes comments only/);
    }
    const noted = await applyBreakAction(db, {
      breakId: orphan,
      action: "comment",
      actor: "ann",
      text: "the entry was a test booking",
    });
    expect(noted.status).toBe("resolved");
  });
});
