// The report's kept figures: every table behind a finance view advances the finance version,
// the console's cached report equals a fresh one after each kind of write, and figures computed
// while a writer was uncommitted are not kept.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { seedThreeBreaks } from "../testing/breaks";
import { openTestDatabase, type TestDatabase, testBackends } from "../testing/databases";
import { applyBreakAction } from "../workflow/break-actions";
import { FiguresCache } from "./figures-cache";
import { financeQuiet, financeVersion } from "./finance-version";
import { loadReport, reportFiguresCache } from "./report-data";

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

  it("every column the statement and the fees read, through other views too, advances the version", async () => {
    const watched = await queryText<{ table_name: string; column_name: string | null }>(
      db,
      "SELECT table_name, column_name FROM finance_watched_columns()",
    );
    const triggers = await queryText<{
      table_name: string;
      tgname: string;
      columns: string | null;
    }>(
      db,
      `SELECT c.relname AS table_name, g.tgname,
         (SELECT string_agg(a.attname, ',' ORDER BY a.attname) FROM pg_attribute a
          WHERE a.attrelid = g.tgrelid AND a.attnum = ANY (g.tgattr)) AS columns
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
      const update = mine.find((t) => t.tgname === "finance_data_update");
      expect(update?.columns?.split(",") ?? [], table).toEqual(columns);
    }
    // break_workflow: the acceptance, not the comment or the assignee.
    const workflow = watched
      .filter((w) => w.table_name === "break_workflow")
      .map((w) => w.column_name);
    expect(workflow).toContain("accepted_at");
    expect(workflow).not.toContain("assignee");

    const before = await financeVersion(db);
    await queryText(db, "UPDATE ledger_entries SET amount = amount WHERE entry_id = 'L-1'");
    expect(await financeVersion(db)).not.toBe(before);
  });

  it("keeps the figures across a comment and an assignment, not across an accept", async () => {
    const cache = new FiguresCache<number>();
    let computed = 0;
    const read = () => cache.read(db, "all", async () => ++computed);
    // The first action on a break creates its workflow row: a new row of a table the statement
    // reads, so the figures are computed again once.
    await applyBreakAction(db, {
      breakId: ids[1] as string,
      action: "comment",
      actor: "bob",
      text: "first look",
    });
    await read();
    for (const action of ["comment", "assign"] as const)
      await applyBreakAction(db, {
        breakId: ids[1] as string,
        action,
        actor: "bob",
        text: "looking",
      });
    await queryText(db, "DELETE FROM ledger_entries WHERE entry_id = 'nothing'");
    await read();
    expect(computed).toBe(1);
    await applyBreakAction(db, {
      breakId: ids[1] as string,
      action: "accept",
      actor: "bob",
      text: "ok",
    });
    await read();
    await read();
    expect(computed).toBe(2);
    await applyBreakAction(db, {
      breakId: ids[1] as string,
      action: "reopen",
      actor: "bob",
    });
    await read();
    expect(computed).toBe(3);
  });

  it("answers the kept figures until a write, then what a fresh report answers", async () => {
    const cache = reportFiguresCache();
    const fresh = () => loadReport(db);
    const cached = () => loadReport(db, { cache });
    expect(await cached()).toEqual(await fresh());
    expect(await cached()).toEqual(await fresh());

    // A workflow action (break_workflow) moves a difference from open to accepted.
    await applyBreakAction(db, {
      breakId: ids[0] as string,
      action: "accept",
      actor: "alice",
      text: "agreed",
    });
    const afterAccept = await cached();
    expect(afterAccept).toEqual(await fresh());
    expect(afterAccept.currencies.find((c) => c.currency === "EUR")?.accepted).toBe("1250.50");

    // A ledger correction written in SQL, outside the worker.
    await queryText(db, "UPDATE ledger_entries SET amount = -100.00 WHERE entry_id = 'L-2'");
    const afterEdit = await cached();
    expect(afterEdit).toEqual(await fresh());
    expect(afterEdit.currencies.find((c) => c.currency === "USD")?.ledgerTotal).toBe("-100.00");
  });
});

// Writers in parallel need a server: PGlite serves one connection.
if (testBackends().includes("postgres"))
  describe("the report's kept figures beside an uncommitted writer (postgres)", () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await openTestDatabase("postgres");
    }, 120_000);
    afterAll(async () => {
      await database?.dispose();
    });

    it("does not keep figures computed while a writer is uncommitted", async () => {
      const db = database.db;
      const other: Database = await database.openAnother();
      const cache = new FiguresCache<number>();
      let computed = 0;
      const read = () => cache.read(db, "all", async () => ++computed);
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
        expect(await financeQuiet(db)).toBe(false);
        await read();
        await read();
        // Neither was kept: the writer's entry, counted in the version, was not in them.
        expect(computed).toBe(2);
        release();
        await writer;
        expect(await financeQuiet(db)).toBe(true);
        await read();
        await read();
        expect(computed).toBe(3);
      } finally {
        release();
        await other.close();
      }
    });
  });
