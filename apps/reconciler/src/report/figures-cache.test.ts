// The report's kept figures: every table behind the statement and the fees names the days a
// write changed (finance_changes), the cache recomputes only those days, and the console's
// cached report equals a fresh full computation after each kind of write; a writer uncommitted
// while the figures were read is counted once it commits.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { importLedger } from "../ledger/import-ledger";
import { runMatch } from "../match/run-match";
import { seedThreeBreaks, TEST_AS_OF } from "../testing/breaks";
import { openTestDatabase, type TestDatabase, testBackends } from "../testing/databases";
import { withoutClock } from "../testing/report-clock";
import { applyBreakAction } from "../workflow/break-actions";
import { writeOffBreak } from "../workflow/write-off";
import { FiguresCache } from "./figures-cache";
import { loadReport, reportFiguresCache } from "./report-data";

/** A cache of the day keys themselves, recording which days each computation was asked for. */
function countingCache() {
  const asked: (string[] | "every")[] = [];
  const cache = new FiguresCache<string>(async (db, days) => {
    asked.push(days ?? "every");
    const rows = await queryText<{ day: string }>(
      db,
      "SELECT DISTINCT day::text AS day FROM finance_daily_statement WHERE day IS NOT NULL",
    );
    return new Map(
      rows.filter((r) => days === undefined || days.includes(r.day)).map((r) => [r.day, r.day]),
    );
  });
  return { asked, read: (db: Db) => cache.read(db) };
}

describe.each(testBackends())("the report's kept figures (%s)", (kind) => {
  let database: TestDatabase;
  let db: Db;
  let ids: string[];
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    db = database.db;
    ids = await seedThreeBreaks(db);
  }, 120_000);
  afterAll(async () => {
    await database?.dispose();
  });

  it("every column the statement and the fees read, through other views too, names its days", async () => {
    const watched = await queryText<{ table_name: string; column_name: string | null }>(
      db,
      "SELECT table_name, column_name FROM finance_watched_columns()",
    );
    const triggers = await queryText<{ table_name: string; tgname: string; args: string }>(
      db,
      `SELECT c.relname AS table_name, g.tgname, encode(g.tgargs, 'escape') AS args
       FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid WHERE g.tgname LIKE 'finance_data_%'`,
    );
    const tables = [...new Set(watched.map((w) => w.table_name))].sort();
    // The statement's sources and what explains them (through provider_items and other views).
    for (const table of [
      "card_transactions",
      "ledger_entries",
      "breaks",
      "break_records",
      "break_workflow",
    ])
      expect(tables).toContain(table);
    expect([...new Set(triggers.map((t) => t.table_name))].sort()).toEqual(tables);
    for (const table of tables) {
      const columns = watched
        .filter((w) => w.table_name === table && w.column_name !== null)
        .map((w) => w.column_name)
        .sort();
      const mine = triggers.filter((t) => t.table_name === table);
      expect(mine.map((t) => t.tgname).sort(), table).toEqual([
        "finance_data_delete",
        "finance_data_insert",
        "finance_data_truncate",
        "finance_data_update",
      ]);
      // The update trigger compares the watched columns of the old and new rows.
      const update = mine.find((t) => t.tgname === "finance_data_update");
      expect(update?.args.replace(/\\000$/, "").split(", "), table).toEqual(columns);
      // Each watched table maps its rows to days (else every write recomputes every day).
      const [days] = await queryText<{ known: boolean | string }>(
        db,
        `SELECT finance_row_days_sql('${table}', 'new_rows') IS NOT NULL AS known`,
      );
      expect(String(days?.known), table).toMatch(/^(true|t)$/);
    }
    // break_workflow: the acceptance, not the comment or the assignee.
    const workflow = watched
      .filter((w) => w.table_name === "break_workflow")
      .map((w) => w.column_name);
    expect(workflow).toContain("accepted_at");
    expect(workflow).not.toContain("assignee");
  });

  it("recomputes the days an accept or a write touched, none after a comment or an assignment", async () => {
    const { asked, read } = countingCache();
    // The first action on a break creates its workflow row: its days are read again once.
    await applyBreakAction(db, {
      breakId: ids[1] as string,
      action: "comment",
      actor: "bob",
      text: "first look",
    });
    await read(db);
    expect(asked).toEqual(["every"]);
    for (const action of ["comment", "assign"] as const)
      await applyBreakAction(db, {
        breakId: ids[1] as string,
        action,
        actor: "bob",
        text: "looking",
      });
    await queryText(db, "DELETE FROM ledger_entries WHERE entry_id = 'nothing'");
    await queryText(db, "UPDATE ledger_entries SET provider_ref = provider_ref");
    await read(db);
    expect(asked).toEqual(["every"]);
    await applyBreakAction(db, {
      breakId: ids[1] as string,
      action: "accept",
      actor: "bob",
      text: "ok",
    });
    await read(db);
    await read(db);
    // L-2 is booked on 2026-05-02: that day only.
    expect(asked).toEqual(["every", ["2026-05-02"]]);
    await applyBreakAction(db, { breakId: ids[1] as string, action: "reopen", actor: "bob" });
    // A ledger entry moved from one day to another: both days.
    await queryText(
      db,
      "UPDATE ledger_entries SET booked_at = '2026-05-05T10:00:00Z' WHERE entry_id = 'L-3'",
    );
    await read(db);
    expect(asked.at(-1)).toEqual(["2026-05-02", "2026-05-03", "2026-05-05"]);
    await queryText(
      db,
      "UPDATE ledger_entries SET booked_at = '2026-05-03T10:00:00Z' WHERE entry_id = 'L-3'",
    );
    await read(db);
    expect(asked.at(-1)).toEqual(["2026-05-03", "2026-05-05"]);
  });

  it("answers what a fresh report answers after an accept, a reopen, a write-off, an import and a match", async () => {
    const cache = reportFiguresCache();
    const fresh = async () => withoutClock(await loadReport(db));
    const cached = () => loadReport(db, { cache });
    const same = async (what: string) => {
      const kept = await cached();
      expect(withoutClock(kept), what).toEqual(await fresh());
      for (const date of ["2026-05-01", "2026-05-02", "2026-05-09"])
        expect(withoutClock(await loadReport(db, { cache, date })), `${what} ${date}`).toEqual(
          withoutClock(await loadReport(db, { date })),
        );
      return kept;
    };
    await same("first");

    // A workflow action (break_workflow) moves a difference from open to accepted.
    await applyBreakAction(db, {
      breakId: ids[0] as string,
      action: "accept",
      actor: "alice",
      text: "agreed",
    });
    const afterAccept = await same("accept");
    expect(afterAccept.currencies.find((c) => c.currency === "EUR")?.accepted).toBe("1250.50");
    await applyBreakAction(db, { breakId: ids[0] as string, action: "reopen", actor: "alice" });
    const afterReopen = await same("reopen");
    expect(afterReopen.currencies.find((c) => c.currency === "EUR")?.accepted).toBe("0");
    await writeOffBreak(db, {
      breakId: ids[2] as string,
      actor: "alice",
      account: "6800 Bank charges",
      reason: "never billed",
      date: "2026-05-31",
    });
    await same("write-off");

    // A ledger correction written in SQL, outside the worker.
    await queryText(db, "UPDATE ledger_entries SET amount = -100.00 WHERE entry_id = 'L-2'");
    const afterEdit = await same("edit");
    expect(afterEdit.currencies.find((c) => c.currency === "USD")?.ledgerTotal).toBe("-100.00");

    // An import of new entries on a new day, then a match run that explains them as breaks.
    await importLedger(
      db,
      "entry_id,kind,provider_ref,amount,currency,booked_at\n" +
        "L-7,card_transaction,T-7,-7.25,EUR,2026-05-09T10:00:00Z\n" +
        "L-8,card_transaction,T-8,-8.50,USD,2026-05-09T23:59:59Z\n",
    );
    const afterImport = await same("import");
    expect(afterImport.statement.filter((r) => r.day === "2026-05-09")).toHaveLength(2);
    await runMatch(db, { asOf: TEST_AS_OF, onIncomplete: "all" });
    await same("match");
    await queryText(db, "DELETE FROM ledger_entries WHERE entry_id = 'L-8'");
    await same("delete");
  });
});

// Writers in parallel need a server: PGlite serves one connection.
if (testBackends().includes("postgres"))
  describe("the report's kept figures beside an uncommitted writer (postgres)", () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await openTestDatabase("postgres");
      await seedThreeBreaks(database.db);
    }, 120_000);
    afterAll(async () => {
      await database?.dispose();
    });

    it("reads a writer's days again once it commits", async () => {
      const db = database.db;
      const other: Database = await database.openAnother();
      const cache = reportFiguresCache();
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let written!: () => void;
      const wrote = new Promise<void>((resolve) => {
        written = resolve;
      });
      try {
        const writer = other.db.transaction(async (tx) => {
          await queryText(
            tx,
            `INSERT INTO ledger_entries (entry_id, kind, provider_ref, amount, currency, booked_at)
             VALUES ('L-9', 'card_transaction', 'T-9', -5, 'EUR', '2026-05-04T10:00:00Z')`,
          );
          written();
          await held;
        });
        await wrote;
        // Read while the writer is uncommitted: its entry is in neither.
        const before = await loadReport(db, { cache });
        expect(withoutClock(before)).toEqual(withoutClock(await loadReport(db)));
        expect(before.statement.some((r) => r.day === "2026-05-04")).toBe(false);
        release();
        await writer;
        const after = await loadReport(db, { cache });
        expect(withoutClock(after)).toEqual(withoutClock(await loadReport(db)));
        expect(after.statement.find((r) => r.day === "2026-05-04")?.ledgerTotal).toBe("-5");
      } finally {
        release();
        await other.close();
      }
    });
  });
