// Finance's actions on breaks, on PGlite and (with DATABASE_URL) a Postgres server: the audit
// trail is append-only in the database, acceptances leave the queue and lapse when a match run
// changes the difference (its sign too), bad input writes nothing, two concurrent accepts have
// one winner, and an accept racing a match run is lapsed by it or records the run's figures.
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { runMatch } from "../match/run-match";
import { maskCardData } from "../store/mask-card-data";
import { listBreaks, seedThreeBreaks, TEST_AS_OF } from "../testing/breaks";
import { type TestDatabase, testBackends } from "../testing/databases";
import { useTestDatabase } from "../testing/use-database";
import { applyBreakAction, type BreakActionInput, type SeenBreak } from "./break-actions";
import { breakHistory, showBreak } from "./break-queries";
import { lapseChangedAcceptances } from "./lapse-acceptances";
import { WorkflowError } from "./workflow-error";

async function failure(promise: Promise<unknown>): Promise<WorkflowError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof WorkflowError) return error;
    throw error;
  }
  throw new Error("expected a WorkflowError");
}

/** The database's own message of a failed statement (drizzle wraps it as the cause). */
async function databaseError(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? cause.message : String(error);
  }
  return "no error";
}

const auditCount = async (db: Db) =>
  Number((await queryText<{ n: string }>(db, "SELECT count(*) AS n FROM break_actions"))[0]?.n);

describe.each(testBackends())("break workflow on %s", (kind) => {
  let database: TestDatabase;
  let db: Db;
  let ids: string[];
  useTestDatabase(kind, (opened) => {
    database = opened;
    db = opened.db;
  });
  beforeAll(async () => {
    ids = await seedThreeBreaks(db);
  });

  it("finds one open break per unbooked ledger entry", () => {
    expect(ids).toHaveLength(3);
  });

  it("sorts the queue by amount as a number, not as text, within each currency", async () => {
    // As text 99.99 came before 1250.50: the largest breaks sank past the page's limit. One
    // break per currency (EUR, USD, HKD): the currencies' order, either way.
    const amounts = async (descending: boolean) =>
      (await listBreaks(db, { sort: "amount", descending })).map((b) => b.amount);
    expect(await amounts(false)).toEqual(["1250.50", "10", "99.99"]);
    expect(await amounts(true)).toEqual(["1250.50", "10", "99.99"]);
    expect((await listBreaks(db, { sort: "class" })).map((b) => b.amount)).toEqual([
      "1250.50",
      "99.99",
      "10",
    ]);
  });

  it("accepts a break with a reason: it leaves the queue and the statement says accepted", async () => {
    const id = ids[0] as string;
    const result = await applyBreakAction(db, {
      breakId: id,
      action: "accept",
      actor: "alice",
      text: "card scheme write-off, ticket FIN-12",
    });
    expect(result.status).toBe("accepted");
    const queue = await queryText<{ break_id: string }>(
      db,
      "SELECT break_id FROM finance_open_breaks",
    );
    expect(queue.map((r) => r.break_id)).not.toContain(id);
    expect(queue).toHaveLength(2);
    const accepted = await listBreaks(db, { status: ["accepted"] });
    expect(accepted.map((b) => [b.breakId, b.acceptedBy, b.acceptedReason])).toEqual([
      [id, "alice", "card scheme write-off, ticket FIN-12"],
    ]);
    const [day] = await queryText<Record<string, string>>(
      db,
      `SELECT difference::text, explained_by_breaks::text, accepted::text, by_class::text
       FROM finance_daily_statement WHERE day = '2026-05-01' AND currency = 'EUR'`,
    );
    expect(day).toEqual({
      difference: "1250.50",
      explained_by_breaks: "1250.50",
      accepted: "1250.50",
      by_class: "{}",
    });
    const history = await breakHistory(db, id);
    expect(history).toMatchObject([
      { actor: "alice", action: "accept", amount: "1250.50", currency: "EUR" },
    ]);
  });

  it("answers finance-queries.md questions 11 and 12 (accepted this month; assigned to whom)", async () => {
    const doc = readFileSync(
      new URL("../../../../docs/finance-queries.md", import.meta.url),
      "utf8",
    );
    const block = (n: number) =>
      doc.split(`## ${n}. `)[1]?.match(/```sql\n([\s\S]*?)```/)?.[1] as string;
    const accepted = await queryText<Record<string, string>>(db, block(11));
    expect(accepted.map((r) => [r.break_id, r.actor, r.reason, r.status_now])).toEqual([
      [ids[0], "alice", "card scheme write-off, ticket FIN-12", "accepted"],
    ]);
    const assigned = await queryText<Record<string, string>>(db, block(12));
    expect(assigned.map((r) => [r.assignee, r.status, r.currency, r.breaks])).toEqual([
      ["(nobody)", "accepted", "EUR", "1"],
      ["(nobody)", "open", "HKD", "1"],
      ["(nobody)", "open", "USD", "1"],
    ]);
  });

  it("refuses a second accept, an unknown id, a missing reason and an empty or system actor, writing nothing", async () => {
    const before = await auditCount(db);
    const again = await failure(
      applyBreakAction(db, {
        breakId: ids[0] as string,
        action: "accept",
        actor: "bob",
        text: "x",
      }),
    );
    expect(again.code).toBe("conflict");
    expect(again.message).toMatch(/already accepted \(by alice at /);
    const second = ids[1] as string;
    const cases: [BreakActionInput, string, string | undefined][] = [
      [
        { breakId: "nope", action: "comment", actor: "bob", text: "hi" },
        "unknown_break",
        "breakId",
      ],
      [{ breakId: second, action: "accept", actor: "bob", text: " " }, "invalid", "reason"],
      [{ breakId: second, action: "comment", actor: "  ", text: "x" }, "invalid", "actor"],
      // The name the reconciler signs its lapses with: the audit could not tell them apart.
      [{ breakId: second, action: "comment", actor: "Reconciler", text: "x" }, "invalid", "actor"],
      [{ breakId: second, action: "reopen", actor: "bob" }, "conflict", undefined],
    ];
    for (const [input, code, field] of cases) {
      const error = await failure(applyBreakAction(db, input));
      expect([error.code, error.field]).toEqual([code, field]);
    }
    expect(await auditCount(db)).toBe(before);
  });

  it("comments, assigns and unassigns, each with one audit row and the workflow columns", async () => {
    const id = ids[1] as string;
    await applyBreakAction(db, {
      breakId: id,
      action: "comment",
      actor: "bob",
      text: "<b>asked the bank</b>",
    });
    await applyBreakAction(db, { breakId: id, action: "assign", actor: "bob", text: "carol" });
    const [queued] = await queryText<Record<string, string | null>>(
      db,
      `SELECT assignee, last_action, last_actor, days_open FROM finance_open_breaks WHERE break_id = '${id}'`,
    );
    expect(queued).toMatchObject({ assignee: "carol", last_action: "assign", last_actor: "bob" });
    expect(Number(queued?.days_open)).toBeGreaterThanOrEqual(0);
    expect((await listBreaks(db, { assignee: "carol" })).map((b) => b.breakId)).toEqual([id]);
    expect((await listBreaks(db, { assignee: "" })).map((b) => b.breakId)).toEqual([ids[2]]);
    await applyBreakAction(db, { breakId: id, action: "unassign", actor: "carol" });
    const detail = await showBreak(db, id);
    expect(detail?.break.assignee).toBeNull();
    expect(detail?.history.map((h) => [h.action, h.actor, h.text])).toEqual([
      ["comment", "bob", "<b>asked the bank</b>"],
      ["assign", "bob", "carol"],
      ["unassign", "carol", ""],
    ]);
    expect(detail?.ledgerEntry).toContainEqual(["entry_id", "L-2"]);
    expect(detail?.records).toEqual([
      {
        side: "ledger",
        recordKind: "ledger_entry",
        recordRef: "L-2",
        amount: "-99.99",
        currency: "USD",
      },
    ]);
  });

  it("refuses an accept of figures other than those shown (a run changed them), writing nothing", async () => {
    const id = ids[1] as string; // USD: ledger -99.99, no provider side, open
    const accept = (seen: SeenBreak) =>
      applyBreakAction(db, { breakId: id, action: "accept", actor: "bob", text: "x", seen });
    const before = await auditCount(db);
    const stale = await failure(
      accept({ amount: "99.98", ledgerAmount: "99.99", status: "pending" }),
    );
    expect([stale.code, stale.message]).toEqual([
      "conflict",
      `break ${id} changed since it was shown (amount 99.98 is now 99.99; ledger amount 99.99 is now -99.99; status pending is now open): nothing done, look at it again`,
    ]);
    expect((await failure(accept({ providerAmount: "1" }))).message).toContain(
      "provider amount 1 is now -",
    );
    expect((await failure(accept({ amount: "1e3" }))).field).toBe("amount");
    // core's decimal rule (isDecimalString): no leading zeros, no exponent.
    expect((await failure(accept({ amount: "099.99" }))).field).toBe("amount");
    expect(await auditCount(db)).toBe(before);
    // The same figures written at another scale are what was shown.
    const seen = { amount: "99.990", providerAmount: "", ledgerAmount: "-99.99", status: "open" };
    expect((await accept(seen)).status).toBe("accepted");
    await applyBreakAction(db, { breakId: id, action: "reopen", actor: "bob" });
  });

  it("refuses UPDATE, DELETE and TRUNCATE of audit rows in the database", async () => {
    const before = await auditCount(db);
    for (const statement of [
      "UPDATE break_actions SET text = 'changed'",
      "DELETE FROM break_actions",
      "TRUNCATE break_actions",
    ])
      expect(await databaseError(queryText(db, statement))).toMatch(/append-only: \w+ refused/);
    expect(await auditCount(db)).toBe(before);
  });

  it("lapses an acceptance when a match run changes the amount, and says why", async () => {
    const id = ids[0] as string;
    await queryText(db, "UPDATE ledger_entries SET amount = -1300.50 WHERE entry_id = 'L-1'");
    await runMatch(db, { asOf: TEST_AS_OF, onIncomplete: "all" });
    const detail = await showBreak(db, id);
    expect(detail?.break.status).toBe("open");
    expect(detail?.break.acceptedAt).toBeNull();
    const last = detail?.history.at(-1);
    expect(last).toMatchObject({ actor: "reconciler", action: "lapse", amount: "1300.50" });
    expect(last?.text).toMatch(/amount changed from 1250.50 to 1300.50/);
    const queue = await queryText<{ break_id: string }>(
      db,
      "SELECT break_id FROM finance_open_breaks",
    );
    expect(queue.map((r) => r.break_id)).toContain(id);
  });

  it("lapses an acceptance when the difference flips sign (same absolute amount)", async () => {
    const id = ids[0] as string;
    await applyBreakAction(db, { breakId: id, action: "accept", actor: "alice", text: "ok" });
    const statement = () =>
      queryText<Record<string, string>>(
        db,
        `SELECT difference::text, accepted::text FROM finance_daily_statement
         WHERE day = '2026-05-01' AND currency = 'EUR'`,
      );
    expect(await statement()).toEqual([{ difference: "1300.50", accepted: "1300.50" }]);
    // The entry is rebooked with the opposite sign: breaks.amount (absolute) stays 1300.50.
    await queryText(db, "UPDATE ledger_entries SET amount = 1300.50 WHERE entry_id = 'L-1'");
    await runMatch(db, { asOf: TEST_AS_OF, onIncomplete: "all" });
    const detail = await showBreak(db, id);
    expect(detail?.break.status).toBe("open");
    expect(detail?.history.at(-1)?.text).toMatch(
      /^acceptance lapsed: ledger amount changed from -1300.50 to 1300.50 \(match run /,
    );
    expect(await statement()).toEqual([{ difference: "-1300.50", accepted: "0" }]);
  });

  it("lapses an acceptance whose class changed, naming both classes", async () => {
    const id = ids[0] as string;
    await applyBreakAction(db, { breakId: id, action: "accept", actor: "alice", text: "again" });
    // What a later run would write for a break whose difference turned into another class.
    await queryText(db, `UPDATE breaks SET class = 'amount_mismatch' WHERE break_id = '${id}'`);
    expect(await lapseChangedAcceptances(db, "run-x")).toBe(1);
    const last = (await breakHistory(db, id)).at(-1);
    expect(last).toMatchObject({ action: "lapse", class: "amount_mismatch" });
    expect(last?.text).toMatch(
      /class changed from missing_at_provider to amount_mismatch \(match run run-x\)/,
    );
    expect(await lapseChangedAcceptances(db, "run-y")).toBe(0);
    await queryText(db, `UPDATE breaks SET class = 'missing_at_provider' WHERE break_id = '${id}'`);
  });

  // breaks.currency is the provider's: a currency_mismatch whose ledger was rebooked from SGD
  // to GBP to JPY kept every accepted figure, and its acceptance with them.
  it("lapses an acceptance whose ledger records changed currency", async () => {
    const id = ids[0] as string;
    await applyBreakAction(db, { breakId: id, action: "accept", actor: "alice", text: "EUR" });
    const recordsIn = (currency: string) =>
      queryText(
        db,
        `UPDATE break_records SET currency = '${currency}' WHERE break_id = '${id}' AND side = 'ledger'`,
      );
    await recordsIn("JPY");
    expect(await lapseChangedAcceptances(db, "run-c")).toBe(1);
    expect((await breakHistory(db, id)).at(-1)?.text).toMatch(
      /^acceptance lapsed: ledger currency changed from EUR to JPY \(match run run-c\)/,
    );
    await recordsIn("EUR");
  });

  it("keeps an unchanged acceptance across runs, and a resolved break keeps its history", async () => {
    const id = ids[2] as string;
    await applyBreakAction(db, { breakId: id, action: "accept", actor: "dan", text: "known" });
    await runMatch(db, { asOf: TEST_AS_OF, onIncomplete: "all" });
    expect((await showBreak(db, id))?.break.status).toBe("accepted");
    await queryText(db, "DELETE FROM ledger_entries WHERE entry_id = 'L-3'");
    await runMatch(db, { asOf: TEST_AS_OF, onIncomplete: "all" });
    const detail = await showBreak(db, id);
    expect(detail?.break.status).toBe("resolved");
    expect(detail?.history.map((h) => h.action)).toEqual(["accept"]);
  });

  // Two connections race: PGlite serves one connection, so these run on the server only.
  if (kind === "postgres") {
    it("lets one of two concurrent accepts win and tells the other", async () => {
      const other = await database.openAnother();
      try {
        const id = ids[1] as string;
        const outcomes = await Promise.allSettled([
          applyBreakAction(db, { breakId: id, action: "accept", actor: "erin", text: "one" }),
          applyBreakAction(other.db, {
            breakId: id,
            action: "accept",
            actor: "frank",
            text: "two",
          }),
        ]);
        const won = outcomes.filter((o) => o.status === "fulfilled");
        const lost = outcomes.filter((o) => o.status === "rejected");
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(1);
        const reason = (lost[0] as PromiseRejectedResult).reason as WorkflowError;
        expect(reason.code).toBe("conflict");
        const accepts = (await breakHistory(db, id)).filter(
          (h) => h.action === "accept" && ["erin", "frank"].includes(h.actor),
        );
        expect(accepts).toHaveLength(1);
        expect(reason.message).toContain(`by ${accepts[0]?.actor}`);
      } finally {
        await other.close();
      }
    });

    it("lapses an accept that waited on the workflow row while a match run changed the break", async () => {
      const id = ids[0] as string;
      const locker = await database.openAnother();
      const runner = await database.openAnother();
      const hold = holdUntilReleased();
      try {
        // Someone else's action holds the break's workflow row: the accept waits for it.
        const locked = locker.db.transaction(async (tx) => {
          await queryText(tx, `SELECT 1 FROM break_workflow WHERE break_id = '${id}' FOR UPDATE`);
          hold.started();
          await hold.released;
        });
        await hold.holding;
        const accept = applyBreakAction(db, {
          breakId: id,
          action: "accept",
          actor: "gus",
          text: "x",
        });
        await lockWaiters(db, 1, () => false);
        await queryText(db, "UPDATE ledger_entries SET amount = 1400.50 WHERE entry_id = 'L-1'");
        const run = settled(runMatch(runner.db, { asOf: TEST_AS_OF, onIncomplete: "all" }));
        // The run waits for the accept (its breaks row is locked); before the fix it finished.
        await lockWaiters(db, 2, run.done);
        hold.release();
        await locked;
        await accept;
        await run.promise;
        const detail = await showBreak(db, id);
        expect(detail?.break.status).toBe("open");
        expect(detail?.history.at(-1)).toMatchObject({ actor: "reconciler", action: "lapse" });
        expect(detail?.history.at(-1)?.text).toMatch(
          /ledger amount changed from 1300.50 to 1400.50/,
        );
      } finally {
        hold.release();
        await locker.close();
        await runner.close();
      }
    });

    it("makes an accept wait for a match run that rewrote the break and record its figures", async () => {
      const id = ids[0] as string;
      const runner = await database.openAnother();
      const hold = holdUntilReleased();
      try {
        // What a run writes for the break, then its lapse check, with its commit held back.
        const run = runner.db.transaction(async (tx) => {
          await queryText(
            tx,
            `UPDATE breaks SET amount = 1500.50, ledger_amount = 1500.50 WHERE break_id = '${id}'`,
          );
          await lapseChangedAcceptances(tx, "run-r");
          hold.started();
          await hold.released;
        });
        await hold.holding;
        const accept = settled(
          applyBreakAction(db, { breakId: id, action: "accept", actor: "gus", text: "y" }),
        );
        await lockWaiters(db, 1, accept.done);
        hold.release();
        await run;
        await accept.promise;
        const [w] = await queryText<Record<string, string>>(
          db,
          `SELECT accepted_amount::text AS amount, accepted_ledger_amount::text AS ledger
           FROM break_workflow WHERE break_id = '${id}'`,
        );
        expect(w).toEqual({ amount: "1500.50", ledger: "1500.50" });
      } finally {
        hold.release();
        await runner.close();
      }
    });
  }
});

// What people type and what their view showed (review of the console and the CLI): an action
// from a view someone else's change made stale is refused naming who changed it, a resubmitted
// form is written once, card numbers are masked before the append-only trail keeps them, control
// characters are refused naming the field, and names are normalised before they are checked.
describe.each(testBackends())("the audit trail's input on %s", (kind) => {
  let db: Db;
  let ids: string[];
  useTestDatabase(kind, (opened) => {
    db = opened.db;
  });
  beforeAll(async () => {
    ids = await seedThreeBreaks(db);
  });
  const act = (input: Partial<BreakActionInput> & Pick<BreakActionInput, "action" | "actor">) =>
    applyBreakAction(db, { breakId: ids[0] as string, ...input });
  /** The id of the break's last audit row ("0": none): what a view of it showed. */
  const lastSeen = async (id: string) => (await breakHistory(db, id)).at(-1)?.id ?? "0";

  it("refuses a reopen, assign or unassign from a view someone changed since, naming who; writes nothing", async () => {
    const id = ids[0] as string;
    await act({ action: "accept", actor: "carol", text: "first acceptance" });
    // Alice's page: accepted by carol, with the Reopen form.
    const alice = await lastSeen(id);
    await act({ action: "reopen", actor: "bob" });
    await act({ action: "accept", actor: "bob", text: "write-off approved" });
    const before = await auditCount(db);
    const stale = await failure(
      act({ action: "reopen", actor: "alice", seen: { lastActionId: alice } }),
    );
    expect(stale.code).toBe("conflict");
    expect(stale.message).toMatch(
      new RegExp(
        `^break ${id} changed since you looked \\(bob reopened it at [^;]+; bob accepted it at [^)]+\\): nothing done, look at it again$`,
      ),
    );
    expect(await auditCount(db)).toBe(before);
    expect((await showBreak(db, id))?.break).toMatchObject({
      status: "accepted",
      acceptedBy: "bob",
    });
    // Two people assign from the same view: one wins, the other is told who.
    const view = await lastSeen(id);
    await act({ action: "assign", actor: "dan", text: "dan", seen: { lastActionId: view } });
    const second = await failure(
      act({ action: "assign", actor: "erin", text: "erin", seen: { lastActionId: view } }),
    );
    expect([second.code, second.message]).toEqual([
      "conflict",
      expect.stringContaining("changed since you looked (dan assigned it to dan at "),
    ]);
    expect(
      (await failure(act({ action: "unassign", actor: "erin", seen: { lastActionId: view } })))
        .code,
    ).toBe("conflict");
    // A comment changes no state: an unassign from the view before it goes through.
    const afterAssign = await lastSeen(id);
    await act({ action: "comment", actor: "frank", text: "asked dan" });
    const done = await act({
      action: "unassign",
      actor: "erin",
      seen: { lastActionId: afterAssign },
    });
    expect(done.assignee).toBeNull();
    // A view of a break nobody acted on shows no audit row: "0".
    const untouched = ids[2] as string;
    expect(await lastSeen(untouched)).toBe("0");
    await act({
      breakId: untouched,
      action: "assign",
      actor: "gus",
      text: "gus",
      seen: { lastActionId: "0" },
    });
    expect(
      (
        await failure(
          act({
            breakId: untouched,
            action: "assign",
            actor: "hal",
            text: "hal",
            seen: { lastActionId: "0" },
          }),
        )
      ).message,
    ).toContain("gus assigned it to gus");
  });

  it("lets an accept or a reopen from another tab through an assignment made since, and an assignment through a reopen", async () => {
    const id = ids[1] as string;
    const view = await lastSeen(id);
    await act({ breakId: id, action: "assign", actor: "dan", text: "dan" });
    const accepted = await act({
      breakId: id,
      action: "accept",
      actor: "erin",
      text: "agreed with the bank",
      seen: { lastActionId: view },
    });
    expect(accepted.status).toBe("accepted");
    const acceptedView = await lastSeen(id);
    await act({ breakId: id, action: "unassign", actor: "dan" });
    const unassignedView = await lastSeen(id);
    await act({
      breakId: id,
      action: "reopen",
      actor: "erin",
      seen: { lastActionId: acceptedView },
    });
    // Dan's tab from before the reopen: assigning it to himself again still goes through.
    const assigned = await act({
      breakId: id,
      action: "assign",
      actor: "dan",
      text: "dan",
      seen: { lastActionId: unassignedView },
    });
    expect(assigned.assignee).toBe("dan");
  });

  it("refuses an accept after the break changed currency, class or ledger currency (the figures the same)", async () => {
    const id = ids[1] as string; // USD: ledger -99.99, no provider side, open
    const [shown] = await listBreaks(db, { status: ["open"], class: undefined }).then((rows) =>
      rows.filter((b) => b.breakId === id),
    );
    const seen: SeenBreak = {
      amount: "99.99",
      providerAmount: "",
      ledgerAmount: "-99.99",
      status: "open",
      class: shown?.class,
      currency: "USD",
      ledgerCurrency: "USD",
    };
    const accept = () =>
      applyBreakAction(db, { breakId: id, action: "accept", actor: "bob", text: "x", seen });
    const before = await auditCount(db);
    const cases: [string, string, string][] = [
      [
        "UPDATE breaks SET currency = 'EUR'",
        "UPDATE breaks SET currency = 'USD'",
        "currency USD is now EUR",
      ],
      [
        "UPDATE breaks SET class = 'amount_mismatch'",
        `UPDATE breaks SET class = '${shown?.class}'`,
        `class ${shown?.class} is now amount_mismatch`,
      ],
      [
        "UPDATE break_records SET currency = 'JPY'",
        "UPDATE break_records SET currency = 'USD'",
        "ledger currency USD is now JPY",
      ],
    ];
    for (const [change, undo, why] of cases) {
      await queryText(db, `${change} WHERE break_id = '${id}'`);
      try {
        const refused = await failure(accept());
        expect([refused.code, refused.message]).toEqual([
          "conflict",
          `break ${id} changed since it was shown (${why}): nothing done, look at it again`,
        ]);
      } finally {
        await queryText(db, `${undo} WHERE break_id = '${id}'`);
      }
    }
    expect(await auditCount(db)).toBe(before);
    expect((await accept()).status).toBe("accepted");
    await applyBreakAction(db, { breakId: id, action: "reopen", actor: "bob" });
  });

  it("masks card numbers in comments and reasons before the append-only trail keeps them", async () => {
    const id = ids[1] as string;
    const comment = "customer called, card 4111 1111 1111 1111 exp 12/29";
    const reason = "refund to card 5555555555554444 agreed";
    await applyBreakAction(db, { breakId: id, action: "comment", actor: "bob", text: comment });
    await applyBreakAction(db, { breakId: id, action: "accept", actor: "bob", text: reason });
    // Exactly as a ledger description is masked (ledger-row.ts).
    const asLedger = (text: string) => maskCardData({ description: text }, false).description;
    const history = await breakHistory(db, id);
    expect(history.slice(-2).map((h) => h.text)).toEqual([asLedger(comment), asLedger(reason)]);
    expect(history.slice(-2).map((h) => h.text)).toEqual([
      "customer called, card 411111******1111 exp 12/29",
      "refund to card 555555******4444 agreed",
    ]);
    expect((await showBreak(db, id))?.break.acceptedReason).toBe(asLedger(reason));
    await applyBreakAction(db, { breakId: id, action: "reopen", actor: "bob" });
    // Full-width digits are digits once folded (NFKC), and masked as such.
    const wide =
      "card \uff14\uff11\uff11\uff11 \uff11\uff11\uff11\uff11 \uff11\uff11\uff11\uff11 \uff11\uff11\uff11\uff11";
    await applyBreakAction(db, { breakId: id, action: "comment", actor: "bob", text: wide });
    expect((await breakHistory(db, id)).at(-1)?.text).toBe("card 411111******1111");
  });

  it("refuses control characters in what is typed, naming the field; line breaks and tabs in text are kept", async () => {
    const id = ids[1] as string;
    const before = await auditCount(db);
    const cases: [BreakActionInput, string][] = [
      [{ breakId: id, action: "comment", actor: "bob", text: "refund\u0000" }, "comment"],
      [{ breakId: id, action: "accept", actor: "bob", text: "ok\x1b[2J" }, "reason"],
      [{ breakId: id, action: "comment", actor: "bo\x07b", text: "x" }, "actor"],
      [{ breakId: id, action: "assign", actor: "bob", text: "car\nol" }, "assignee"],
      [{ breakId: id, action: "comment", actor: "bob", text: "x\u0085y" }, "comment"],
    ];
    for (const [input, field] of cases) {
      const error = await failure(applyBreakAction(db, input));
      expect([error.code, error.field, error.message]).toEqual([
        "invalid",
        field,
        expect.stringMatching(new RegExp(`^${field} must not hold control characters \\(U\\+`)),
      ]);
    }
    expect(await auditCount(db)).toBe(before);
    const text = "line one\r\nline two\tand a tab";
    await applyBreakAction(db, { breakId: id, action: "comment", actor: "bob", text });
    expect((await breakHistory(db, id)).at(-1)?.text).toBe(text);
  });

  it("writes a resubmitted comment once: same view, same actor, same text", async () => {
    const id = ids[2] as string;
    const view = await lastSeen(id);
    const comment = (text: string, actor = "alice", seen = view) =>
      applyBreakAction(db, {
        breakId: id,
        action: "comment",
        actor,
        text,
        seen: { lastActionId: seen },
      });
    const first = await comment("called the bank, refund on its way");
    const again = await comment("called the bank, refund on its way");
    expect(again).toMatchObject({ actionId: first.actionId, duplicate: true });
    expect(first.duplicate).toBe(false);
    await comment("another note"); // another text from the same view: written
    await comment("called the bank, refund on its way", "bob"); // another person: written
    // A new view (after her first comment) may say the same again.
    await comment("called the bank, refund on its way", "alice", first.actionId);
    const texts = (await breakHistory(db, id)).filter((h) => h.action === "comment");
    expect(texts.map((h) => [h.actor, h.text])).toEqual([
      ["alice", "called the bank, refund on its way"],
      ["alice", "another note"],
      ["bob", "called the bank, refund on its way"],
      ["alice", "called the bank, refund on its way"],
    ]);
  });

  it("normalises names (NFKC, invisible characters, spaces) before the reserved-name and empty checks", async () => {
    const id = ids[2] as string;
    const before = await auditCount(db);
    const refused: [string, RegExp][] = [
      ["reconciler\u200b", /is the name the reconciler signs its own audit rows with/],
      ["\u200b", /actor is required/],
      ["\u2060\ufeff \u200d", /actor is required/],
      ["ＲＥＣＯＮＣＩＬＥＲ", /reconciler signs/],
      ["r\u0435conciler", /reconciler signs/], // a Cyrillic е
      ["re\u00adcon\u034fciler", /reconciler signs/],
    ];
    for (const [actor, message] of refused) {
      const error = await failure(
        applyBreakAction(db, { breakId: id, action: "comment", actor, text: "x" }),
      );
      expect([error.code, error.field, error.message], JSON.stringify(actor)).toEqual([
        "invalid",
        "actor",
        expect.stringMatching(message),
      ]);
    }
    const invisible = await failure(
      applyBreakAction(db, { breakId: id, action: "assign", actor: "bob", text: "\u200b\u200c" }),
    );
    expect([invisible.field, invisible.message]).toEqual([
      "assignee",
      expect.stringMatching(/assignee is required/),
    ]);
    expect(await auditCount(db)).toBe(before);
    await applyBreakAction(db, {
      breakId: id,
      action: "assign",
      actor: " ali\u200bce\u00a0 ",
      text: "Ｃａｒｏｌ  Smith",
    });
    const last = (await breakHistory(db, id)).at(-1);
    expect([last?.actor, last?.text]).toEqual(["alice", "Carol Smith"]);
  });

  it("refuses none as an assignee's name: it is the queue filter's word for unassigned", async () => {
    const before = await auditCount(db);
    for (const name of ["none", "None", " NONE\u200b"]) {
      const error = await failure(
        applyBreakAction(db, {
          breakId: ids[2] as string,
          action: "assign",
          actor: "bob",
          text: name,
        }),
      );
      expect([error.code, error.field, error.message]).toEqual([
        "invalid",
        "assignee",
        expect.stringContaining("--assignee none"),
      ]);
    }
    expect(await auditCount(db)).toBe(before);
  });
});

/** A transaction held open by a test: `holding` once it took its locks, until release(). */
function holdUntilReleased() {
  let started = () => {};
  let release = () => {};
  const holding = new Promise<void>((resolve) => {
    started = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { holding, started: () => started(), released, release: () => release() };
}

/** A promise and whether it has settled yet (a rejection is still thrown by `promise`). */
function settled<T>(promise: Promise<T>): { promise: Promise<T>; done: () => boolean } {
  let done = false;
  promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  return { promise, done: () => done };
}

/**
 * Waits until `n` connections to the test database wait on a lock, or `finished()` says the
 * work that should be waiting went through without waiting (the test's assertions then fail).
 */
async function lockWaiters(db: Db, n: number, finished: () => boolean): Promise<void> {
  await vi.waitFor(
    async () => {
      if (finished()) return;
      const [waiting] = await queryText<{ n: string }>(
        db,
        "SELECT count(*)::text AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
      );
      expect(waiting?.n).toBe(String(n));
    },
    { timeout: 10_000, interval: 20 },
  );
}
