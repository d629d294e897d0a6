// A write-off's journal entries are reversed when its acceptance ends — someone reopens the
// break, or a match run lapses it because the figures changed — so that writing the break off
// again books only the new difference: the journal of a break sums to what is written off now.
import { describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { runMatch } from "../match/run-match";
import { seedThreeBreaks, TEST_AS_OF } from "../testing/breaks";
import { testBackends } from "../testing/databases";
import { useTestDatabase } from "../testing/use-database";
import { applyBreakAction } from "./break-actions";
import { writeOffBreak } from "./write-off";

describe.each(testBackends())("write-off reversals on %s", (kind) => {
  let db: Db;
  useTestDatabase(kind, (opened) => {
    db = opened.db;
  });
  const journal = (breakId: string) =>
    queryText<Record<string, string | null>>(
      db,
      `SELECT e.id::text, e.amount::text, e.currency, e.account, e.actor, e.reason, e.reference,
         e.reverses_id::text, a.action
       FROM journal_entries e JOIN break_actions a ON a.id = e.action_id
       WHERE e.break_id = '${breakId}' ORDER BY e.id`,
    );
  const total = async (breakId: string) =>
    (
      await queryText<{ total: string }>(
        db,
        `SELECT coalesce(sum(amount), 0)::text AS total FROM journal_entries WHERE break_id = '${breakId}'`,
      )
    )[0]?.total;
  const writeOff = (breakId: string) =>
    writeOffBreak(db, { breakId, actor: "alice", account: "6800", reason: "scheme fee" });

  it("reverses on a reopen and on a lapse; a second write-off books only the new figures", async () => {
    const [id] = (await seedThreeBreaks(db)) as [string]; // ledger -1250.50 EUR, no provider record
    await writeOff(id);
    await applyBreakAction(db, { breakId: id, action: "reopen", actor: "bob" });
    expect(await journal(id)).toEqual([
      expect.objectContaining({ amount: "1250.50", action: "write_off", reverses_id: null }),
      expect.objectContaining({
        amount: "-1250.50",
        currency: "EUR",
        account: "6800",
        actor: "bob",
        reason: "write-off reopened by bob",
        action: "reopen",
        reference: expect.stringMatching(
          /^reversal of journal entry \d+: ledger:ledger_entry:L-1$/,
        ),
      }),
    ]);
    const [first, reversal] = await journal(id);
    expect(reversal?.reverses_id).toBe(first?.id);
    expect(await total(id)).toBe("0.00");

    // Written off again, then the ledger corrects the entry: the run lapses the acceptance.
    await writeOff(id);
    await queryText(db, "UPDATE ledger_entries SET amount = -1200.00 WHERE entry_id = 'L-1'");
    await runMatch(db, { asOf: TEST_AS_OF, onIncomplete: "all" });
    const lapsed = (await journal(id)).slice(2);
    expect(lapsed).toEqual([
      expect.objectContaining({ amount: "1250.50", action: "write_off" }),
      expect.objectContaining({
        amount: "-1250.50",
        actor: "reconciler",
        action: "lapse",
        reason: expect.stringMatching(
          /^acceptance lapsed: amount changed from 1250\.50 to 1200\.00/,
        ),
      }),
    ]);
    expect(await total(id)).toBe("0.00");
    // Written off once more: the journal holds the new difference only.
    await writeOff(id);
    expect(await total(id)).toBe("1200.00");
  });
});
