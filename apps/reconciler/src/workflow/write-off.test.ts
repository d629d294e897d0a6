// Write-offs as journal entries, on PGlite and (with DATABASE_URL) a Postgres server: one entry
// per currency the break touches (provider − ledger from its records), the break accepted with
// the reason, an audit row; bad input and a break that cannot be written off write nothing; the
// journal is append-only in the database.
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { listBreaks, seedThreeBreaks } from "../testing/breaks";
import { testBackends } from "../testing/databases";
import { documentedQueries } from "../testing/documented-queries";
import { useTestDatabase } from "../testing/use-database";
import { applyBreakAction } from "./break-actions";
import { breakHistory } from "./break-queries";
import { WorkflowError } from "./workflow-error";
import { writeOffBreak } from "./write-off";

async function failure(promise: Promise<unknown>): Promise<WorkflowError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof WorkflowError) return error;
    throw error;
  }
  throw new Error("expected a WorkflowError");
}

const count = async (db: Db, table: string) =>
  Number((await queryText<{ n: string }>(db, `SELECT count(*) AS n FROM ${table}`))[0]?.n);

describe.each(testBackends())("write-offs on %s", (kind) => {
  let db: Db;
  let ids: string[];
  useTestDatabase(kind, (opened) => {
    db = opened.db;
  });
  beforeAll(async () => {
    ids = await seedThreeBreaks(db);
  });

  it("books provider − ledger as one journal entry and accepts the break", async () => {
    const id = ids[0] as string; // ledger -1250.50 EUR, no provider record
    const result = await writeOffBreak(db, {
      breakId: id,
      actor: "alice",
      account: "6800 Bank charges",
      reason: "scheme fee never billed",
      date: "2026-05-31",
    });
    expect(result).toMatchObject({ breakId: id, status: "accepted" });
    expect(result.entries).toMatchObject([
      {
        entryDate: "2026-05-31",
        account: "6800 Bank charges",
        amount: "1250.50",
        currency: "EUR",
        breakId: id,
        reference: "ledger:ledger_entry:L-1",
        actor: "alice",
        reason: "scheme fee never billed",
        actionId: result.actionId,
      },
    ]);
    expect((await listBreaks(db)).map((b) => b.breakId)).not.toContain(id);
    const [accepted] = await listBreaks(db, { status: ["accepted"] });
    expect(accepted).toMatchObject({ breakId: id, acceptedBy: "alice", lastAction: "write_off" });
    expect((await breakHistory(db, id)).at(-1)).toMatchObject({
      action: "write_off",
      actor: "alice",
      text: "scheme fee never billed (account 6800 Bank charges)",
    });
  });

  it("books one entry per currency of a break with records in two currencies", async () => {
    const id = ids[1] as string; // ledger -99.99 USD; its provider side made -1710.47 HKD
    await queryText(
      db,
      `INSERT INTO break_records (break_id, side, record_kind, record_ref, amount, currency)
        VALUES ('${id}', 'provider', 'card_transaction', 'T-2', -1710.47, 'HKD')`,
    );
    const { entries } = await writeOffBreak(db, {
      breakId: id,
      actor: "bob",
      account: "FX:7100",
      reason: "booked in the wrong currency",
      date: "2026-05-31",
    });
    // Never one sum across currencies: -1710.47 HKD and +99.99 USD, each on its own entry.
    expect(entries.map((e) => [e.currency, e.amount, e.reference])).toEqual([
      ["HKD", "-1710.47", "provider:card_transaction:T-2"],
      ["USD", "99.99", "ledger:ledger_entry:L-2"],
    ]);
  });

  it("dates the entries on the write-off's UTC day without --date", async () => {
    const id = ids[2] as string;
    const { entries } = await writeOffBreak(db, {
      breakId: id,
      actor: "carol",
      account: "6800",
      reason: "small",
    });
    expect(entries[0]?.entryDate).toBe(new Date().toISOString().slice(0, 10));
  });

  it("refuses bad input and a break already accepted, naming the field, writing nothing", async () => {
    const before = [await count(db, "journal_entries"), await count(db, "break_actions")];
    const base = { breakId: ids[0] as string, actor: "alice", account: "6800", reason: "x" };
    const cases: [Partial<typeof base> & { date?: string }, string, RegExp][] = [
      [{ account: " " }, "account", /account is required/],
      [{ account: "=HYPERLINK(1)" }, "account", /account must be 1–64 letters/],
      [{ reason: "" }, "reason", /reason is required/],
      [{ date: "2026-02-30" }, "date", /calendar day YYYY-MM-DD, not 2026-02-30/],
      [{ actor: "reconciler" }, "actor", /reconciler signs/],
    ];
    for (const [change, field, message] of cases) {
      const error = await failure(writeOffBreak(db, { ...base, ...change }));
      expect([error.code, error.field], field).toEqual(["invalid", field]);
      expect(error.message).toMatch(message);
    }
    const again = await failure(writeOffBreak(db, base));
    expect(again.code).toBe("conflict");
    expect(again.message).toMatch(/already accepted \(by alice .*reopen it first/);
    // A page shown before the write-off cannot act on its state as if it had not happened.
    const stale = await failure(
      applyBreakAction(db, {
        breakId: base.breakId,
        action: "reopen",
        actor: "bob",
        seen: { lastActionId: "0" },
      }),
    );
    expect(stale.message).toMatch(/changed since you looked \(alice wrote it off at /);
    const unknown = await failure(writeOffBreak(db, { ...base, breakId: "nope" }));
    expect(unknown.code).toBe("unknown_break");
    expect([await count(db, "journal_entries"), await count(db, "break_actions")]).toEqual(before);
  });

  it("answers finance query 13 as documented: written off per account and currency", async () => {
    const q13 = documentedQueries().get(13) ?? "";
    // Entries dated 2026-05-31 fall outside this month; the one booked today is in it.
    const rows = await queryText(db, q13);
    expect(rows).toEqual([{ account: "6800", currency: "HKD", entries: "1", amount: "10" }]);
  });

  it("keeps the journal append-only in the database", async () => {
    for (const statement of [
      "UPDATE journal_entries SET amount = 0",
      "DELETE FROM journal_entries",
      "TRUNCATE journal_entries",
    ])
      await expect(queryText(db, statement), statement).rejects.toThrow();
    expect(await count(db, "journal_entries")).toBe(4);
  });
});
