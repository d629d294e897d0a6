// A write-off's journal entries are reversed when its acceptance ends — someone reopens the
// break, a match run lapses it because the figures changed, or the break resolves (the missing
// record arrives, or a manual match pairs its records) — so that writing the break off again
// books only the new difference: the journal of a break sums to what is written off now.
import { describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { runMatch } from "../match/run-match";
import { seedThreeBreaks, TEST_AS_OF } from "../testing/breaks";
import { testBackends } from "../testing/databases";
import { useTestDatabase } from "../testing/use-database";
import { applyBreakAction } from "./break-actions";
import { matchManually } from "./manual-match";
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

  /** A settled clearing (the provider's side of a card payment). */
  const clearing = (no: string, amount: string, currency: string) =>
    queryText(
      db,
      `INSERT INTO card_transactions (txn_order_no, card_id, txn_type, txn_status, transaction_time,
         card_amount, card_currency, settle_amount, settle_currency, settle_time, raw, raw_hash,
         version, source)
       VALUES ('${no}', '900', 'CLEARING', 'S', '2026-05-02T10:00:00Z', ${amount}, '${currency}',
         ${amount}, '${currency}', '2026-05-02T10:00:00Z', '{}', '0', 1, 'sync')`,
    );
  const run = () => runMatch(db, { asOf: TEST_AS_OF, onIncomplete: "all" });
  const state = async (breakId: string) =>
    (
      await queryText(
        db,
        `SELECT b.status, w.accepted_at IS NULL AS unaccepted, w.last_action, w.last_actor
          FROM breaks b JOIN break_workflow w USING (break_id) WHERE b.break_id = '${breakId}'`,
      )
    )[0];

  it("reverses when a run resolves the break: the missing record arrives", async () => {
    const [, id] = (
      await queryText<{ break_id: string }>(
        db,
        "SELECT break_id FROM breaks WHERE entry_id IN ('L-1', 'L-2') ORDER BY entry_id",
      )
    ).map((b) => b.break_id) as [string, string]; // L-2: ledger -99.99 USD, no provider record
    await writeOff(id);
    await clearing("T-2", "99.99", "USD");
    await run();
    expect(await state(id)).toEqual({
      status: "resolved",
      unaccepted: true,
      last_action: "lapse",
      last_actor: "reconciler",
    });
    expect(await journal(id)).toEqual([
      expect.objectContaining({ amount: "99.99", action: "write_off", reverses_id: null }),
      expect.objectContaining({
        amount: "-99.99",
        currency: "USD",
        actor: "reconciler",
        action: "lapse",
        reason: expect.stringMatching(
          /^write-off reversed: the break resolved \(its records are matched: exact:card_transaction:T-2\) \(match run [0-9a-f-]+\)$/,
        ),
      }),
    ]);
    expect(await total(id)).toBe("0.00");
    // Once: the next run books nothing more.
    await run();
    expect(await journal(id)).toHaveLength(2);
  });

  it("reverses when a manual match pairs the break's records and the run applies it", async () => {
    const [id] = (
      await queryText<{ break_id: string }>(
        db,
        "SELECT break_id FROM breaks WHERE entry_id = 'L-3'",
      )
    ).map((b) => b.break_id) as [string]; // L-3: ledger -10 HKD, no provider record
    await clearing("T-3X", "10.00", "HKD"); // the same payment under a mistyped key
    await run();
    await writeOff(id);
    await matchManually(db, {
      entries: ["L-3"],
      records: ["T-3X"],
      actor: "carol",
      reason: "mistyped key",
    });
    // The write-off stands until the run applies the match.
    expect(await total(id)).toBe("10");
    await run();
    expect(await state(id)).toMatchObject({ status: "resolved", unaccepted: true });
    expect((await journal(id)).at(-1)).toMatchObject({
      amount: "-10",
      action: "lapse",
      reason: expect.stringMatching(
        /^write-off reversed: the break resolved \(its records are matched: manual:1\)/,
      ),
    });
    expect(await total(id)).toBe("0");
  });
});
