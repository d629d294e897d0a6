// The entities migration (platform_entities) on a database of one merchant: the data of a
// matched run with every injectable break class (and an accepted break), held by the schema
// before it, migrated; every finance view, the matches and the provider items answer the same
// rows to the cent, with entity '' (the merchant itself) as their new column.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunningSandbox } from "@merchantkit/sandbox";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { testBackends } from "../testing/databases";
import { matchEveryClass } from "../testing/every-class";
import { migrateDatabase } from "../testing/migrate-again";
import { useSandboxAndDatabase } from "../testing/sandbox-database";
import { applyBreakAction } from "../workflow/break-actions";
import { openDatabase } from "./connect";
import type { Database, DatabaseKind, Db } from "./database";
import { defaultMigrationsFolder } from "./migrations";
import { queryRows, queryText } from "./query-rows";
import { createScratchDatabase } from "./scratch-database";

const MIGRATION = "platform_entities";

/** What finance reads: each view, and the match tables' views. */
const VIEWS = [
  "provider_items",
  "matches",
  "match_members",
  "finance_statement_lines",
  "finance_daily_statement",
  "finance_currency_bridge",
  "finance_open_breaks",
  "finance_break_workflow",
  "finance_break_effects",
  "finance_fees_by_type",
  "finance_parked_service_ids",
];

/** The migrations folder without the entities migration and those after it. */
function folderBefore(): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), "reconciler-before-entities-"));
  cpSync(defaultMigrationsFolder(), path, { recursive: true });
  const journalPath = join(path, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as {
    entries: { tag: string }[];
  };
  const at = journal.entries.findIndex((e) => e.tag.endsWith(MIGRATION));
  if (at < 0) throw new Error(`no migration ${MIGRATION} in the journal`);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalPath, JSON.stringify(journal));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

async function openBefore(
  kind: DatabaseKind,
  folder: string,
): Promise<{ database: Database; drop(): Promise<void> }> {
  if (kind === "pglite") {
    const database = await openDatabase({ dataDir: "memory://", migrationsFolder: folder });
    return { database, drop: () => database.close() };
  }
  const scratch = await createScratchDatabase(process.env.DATABASE_URL as string, "reconciler_mig");
  const database = await openDatabase({ url: scratch.url, migrationsFolder: folder });
  return {
    database,
    async drop() {
      await database.close();
      await scratch.drop();
    },
  };
}

/** Every table the older schema has, filled with the rows `from` holds, by the older columns. */
async function copyRows(from: Db, to: Db): Promise<number> {
  const tables = await queryText<{ table_name: string; columns: string }>(
    to,
    `SELECT c.table_name, string_agg(quote_ident(c.column_name), ', ' ORDER BY c.ordinal_position) AS columns
     FROM information_schema.columns c JOIN information_schema.tables t
       ON t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
     GROUP BY c.table_name`,
  );
  let copied = 0;
  await to.transaction(async (tx) => {
    // As a restore does: the triggers (the change log) stay out of the way.
    await tx.execute(sql.raw("SET LOCAL session_replication_role = replica"));
    for (const { table_name: table, columns } of tables) {
      // As text both ways: numbers and ids keep every digit.
      const [rows] = await queryText<{ json: string; n: string }>(
        from,
        `SELECT coalesce(json_agg(t), '[]')::text AS json, count(*) AS n FROM (SELECT ${columns} FROM ${table}) t`,
      );
      const json = rows?.json ?? "[]";
      copied += Number(rows?.n ?? 0);
      await queryRows(
        tx,
        sql`INSERT INTO ${sql.identifier(table)} (${sql.raw(columns)}) OVERRIDING SYSTEM VALUE
          SELECT ${sql.raw(columns)} FROM json_populate_recordset(null::${sql.identifier(table)}, ${json}::json)`,
      );
    }
  });
  return copied;
}

/**
 * Each view's rows as sorted JSON lines, entity left out (the new column), and the due dates a
 * later migration added to finance_open_breaks (due_settings).
 */
async function figures(db: Db): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const view of VIEWS) {
    const rows = await queryText<Record<string, unknown>>(db, `SELECT * FROM ${view}`);
    out[view] = rows
      .map(({ entity, due_at: _dueAt, overdue: _overdue, ...rest }) => {
        if (entity !== undefined) expect(entity, view).toBe("");
        return JSON.stringify(rest);
      })
      .sort();
  }
  return out;
}

describe.each(testBackends())("the entities migration on %s", (kind) => {
  let db: Db;
  let sandbox: RunningSandbox;
  useSandboxAndDatabase(kind, (opened) => {
    ({ db, sandbox } = opened);
  });
  const folder = folderBefore();
  afterAll(() => folder.remove());

  it("migrates a database of one merchant with no change to its figures", async () => {
    await matchEveryClass(db, sandbox);
    const [first] = await queryText<{ break_id: string }>(
      db,
      `SELECT break_id FROM breaks WHERE status = 'open' ORDER BY break_id LIMIT 1`,
    );
    await applyBreakAction(db, {
      breakId: first?.break_id as string,
      action: "accept",
      actor: "alice",
      text: "agreed",
    });
    const before = await openBefore(kind, folder.path);
    try {
      const old = before.database.db;
      const [hasEntity] = await queryText<{ n: string }>(
        old,
        `SELECT count(*) AS n FROM information_schema.columns
         WHERE table_schema = current_schema() AND column_name = 'entity'`,
      );
      expect(Number(hasEntity?.n)).toBe(0);
      expect(await copyRows(db, old)).toBeGreaterThan(1000);
      const was = await figures(old);
      expect(was.finance_open_breaks?.length).toBeGreaterThan(5);
      expect(was.finance_currency_bridge?.length).toBeGreaterThan(0);
      await migrateDatabase(before.database);
      const now = await figures(old);
      for (const view of VIEWS) expect(now[view], view).toEqual(was[view]);
      // The migrated figures are those of the database migrated from the start.
      expect(await figures(db)).toEqual(now);
    } finally {
      await before.drop();
    }
  }, 240_000);
});
