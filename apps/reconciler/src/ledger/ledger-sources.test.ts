// The ledger sources a cycle takes in: the watched folder (taken in once, all or nothing, bad
// files rejected with their reasons, half-written files left for later, repeats imported once)
// and the merchant's own database through a query (same checks, all or nothing, no secrets in
// errors), tested against a second, real Postgres database.
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { createScratchDatabase, type ScratchDatabase } from "../db/scratch-database";
import {
  openTestDatabase,
  type TestDatabase,
  temporaryFolder,
  testBackends,
} from "../testing/databases";
import { dropLedgerFile, LEDGER_HEADER } from "../testing/ledger-files";
import { useTestDatabase } from "../testing/use-database";
import { intakeLedgerFolder } from "./folder-source";
import { intakeLedgerQuery, LedgerQueryError } from "./query-source";

const HEADER = LEDGER_HEADER;
const GOOD = [
  HEADER,
  "F-1,account,1953712585351499999,100000.00,USD,2026-05-01T09:00:00Z,,,top-up",
  'F-2,card_transaction,T0001,-19.83,USD,2026-05-02T18:08:55+02:00,,1953712585351499798,"STARBUCKS, NY"',
  "F-3,fee,T0001,-0.40,USD,2026-05-02,EXCHANGE,,",
].join("\r\n");
const BAD = [
  HEADER,
  "B-1,account,00123,5.00,USD,2026-05-01T09:00:00Z,,,",
  "B-2,card_transaction,T0002,1e2,USD,2026-05-01T09:00:00Z,,,",
  "B-3,card_transaction,T0003,-1.00,USD,2026-05-01T09:00:00Z,,,fine row",
].join("\n");

const drop = dropLedgerFile;

const count = async (db: Db, table: string) =>
  Number((await queryText<{ n: string }>(db, `SELECT count(*) AS n FROM ${table}`))[0]?.n);

describe.each(testBackends())("the ledger folder on %s", (kind) => {
  let database: TestDatabase;
  let folder: ReturnType<typeof temporaryFolder>;
  useTestDatabase(kind, (opened) => {
    database = opened;
  });
  beforeEach(() => {
    folder = temporaryFolder("ledger-drops-");
    return () => folder.remove();
  });

  it("takes in good files once, rejects bad ones with every bad line, and leaves unsettled ones", async () => {
    const { db } = database;
    drop(folder.path, "a-good.csv", GOOD);
    drop(folder.path, "b-bad.csv", BAD);
    drop(folder.path, "c-fresh.csv", GOOD.replaceAll("F-", "N-"), false);
    drop(folder.path, "d-next.csv.part", GOOD.replaceAll("F-", "P-"));
    const before = await count(db, "ledger_entries");

    const intake = await intakeLedgerFolder(db, folder.path);

    expect(intake.files.map((f) => [f.name, f.status, f.rows])).toEqual([
      ["a-good.csv", "imported", 3],
      ["b-bad.csv", "rejected", 2],
    ]);
    expect(intake.waiting.sort()).toEqual(["c-fresh.csv", "d-next.csv.part"]);
    expect(await count(db, "ledger_entries")).toBe(before + 3);
    const stored = await queryText<{ entry_id: string }>(
      db,
      "SELECT entry_id FROM ledger_entries WHERE entry_id LIKE 'B-%'",
    );
    expect(stored).toEqual([]);
    expect(readdirSync(folder.path).sort()).toEqual([
      "c-fresh.csv",
      "d-next.csv.part",
      "imported",
      "processing",
      "rejected",
    ]);
    expect(existsSync(join(folder.path, "imported", "a-good.csv"))).toBe(true);
    const reason = readFileSync(join(folder.path, "rejected", "b-bad.csv.reason.txt"), "utf8");
    expect(reason).toContain(
      'line 2: provider_ref "00123" is not a serviceId (a 64-bit integer, at most 2^63 - 1,',
    );
    expect(reason).toMatch(/line 3: amount "1e2" is not a signed decimal/);
    expect(reason).not.toMatch(/line 4/);
    const files = await queryText<{ name: string; status: string; rows: number; sha256: string }>(
      db,
      "SELECT name, status, rows, sha256 FROM ledger_files ORDER BY id",
    );
    expect(files.map((f) => [f.name, f.status, f.rows])).toEqual([
      ["a-good.csv", "imported", 3],
      ["b-bad.csv", "rejected", 2],
    ]);
    expect(files[0]?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("imports the same content dropped twice once, and a corrected file as changes", async () => {
    const { db } = database;
    drop(folder.path, "again.csv", GOOD);
    const first = await intakeLedgerFolder(db, folder.path);
    expect(first.files.map((f) => f.status)).toEqual(["duplicate"]);
    drop(folder.path, "again.csv", GOOD);
    const second = await intakeLedgerFolder(db, folder.path);
    expect(second.files.map((f) => f.status)).toEqual(["duplicate"]);
    // Both copies kept under imported/, neither overwritten.
    expect(readdirSync(join(folder.path, "imported")).length).toBe(2);

    drop(folder.path, "fix.csv", GOOD.replace("-19.83", "-19.84"));
    const fix = await intakeLedgerFolder(db, folder.path);
    expect(fix.files.map((f) => [f.status, f.inserted, f.updated])).toEqual([["imported", 0, 1]]);
    const [row] = await queryText<{ amount: string }>(
      db,
      "SELECT amount::text FROM ledger_entries WHERE entry_id = 'F-2'",
    );
    expect(row?.amount).toBe("-19.84");
  });

  // Rows a dead import left in staging (kill -9 mid-import) are cleared by the next import.
  it("is emptied of a dead import's rows by the next import", async () => {
    const { db } = database;
    await queryText(
      db,
      `INSERT INTO ledger_staging (import_id, line_no, entry_id, kind, provider_ref, amount, currency, booked_at)
       VALUES ('dead', 2, 'Z-1', 'card_transaction', 'T1', 1, 'USD', now())`,
    );
    const folder = temporaryFolder("ledger-staging-");
    try {
      mkdirSync(folder.path, { recursive: true });
      drop(folder.path, "one.csv", `${HEADER}\nS-1,card_transaction,T9,-1.00,USD,2026-05-01,,,`);
      await intakeLedgerFolder(db, folder.path);
    } finally {
      folder.remove();
    }
    expect(await count(db, "ledger_staging")).toBe(0);
  });
});

describe.each(testBackends().filter((k) => k === "postgres"))(
  "the ledger query on a second Postgres database (reconciler on %s)",
  (kind) => {
    let database: TestDatabase;
    let merchant: ScratchDatabase;
    let url: string;
    let sql: postgres.Sql;
    const QUERY = `SELECT id AS entry_id, kind, ref AS provider_ref, amt AS amount, cur AS currency,
      at AS booked_at, note AS description FROM general_ledger ORDER BY id`;
    beforeAll(async () => {
      database = await openTestDatabase(kind);
      const server = process.env.DATABASE_URL as string;
      merchant = await createScratchDatabase(server, "merchant_ledger");
      // A password the server (trust auth) ignores: it must never appear in an error.
      const withSecret = new URL(merchant.url);
      withSecret.password = "s3cret-pw";
      url = withSecret.toString();
      sql = postgres(merchant.url, { max: 1, onnotice: () => {} });
      await sql`CREATE TABLE general_ledger (id text, kind text, ref text, amt numeric,
        cur text, at timestamptz, note text)`;
      await sql`INSERT INTO general_ledger VALUES
        ('Q-1', 'account', '9223372036854775807', 12345678901234567.89, 'USD', '2026-05-01T09:00:00Z', 'top-up'),
        ('Q-2', 'card_transaction', 'T0009', -0.10, 'EUR', '2026-05-02T10:30:00+02:00', null)`;
    }, 60_000);
    afterAll(async () => {
      await sql.end({ timeout: 5 });
      await merchant.drop();
      await database.dispose();
    });

    it("imports the query's rows with every digit, and again as unchanged", async () => {
      const { db } = database;
      const first = await intakeLedgerQuery(db, { url, query: QUERY });
      expect(first).toMatchObject({ rows: 2, inserted: 2, updated: 0 });
      expect(first.source).not.toContain("s3cret");
      const rows = await queryText<{ entry_id: string; amount: string; booked_at: string }>(
        db,
        `SELECT entry_id, amount::text, to_char(booked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') AS booked_at
         FROM ledger_entries WHERE entry_id LIKE 'Q-%' ORDER BY entry_id`,
      );
      expect(rows).toEqual([
        { entry_id: "Q-1", amount: "12345678901234567.89", booked_at: "2026-05-01T09:00:00" },
        { entry_id: "Q-2", amount: "-0.10", booked_at: "2026-05-02T08:30:00" },
      ]);
      const again = await intakeLedgerQuery(db, { url, query: QUERY });
      expect(again).toMatchObject({ rows: 2, inserted: 0, updated: 0, unchanged: 2 });
    });

    it("reads booked_at whatever DateStyle the merchant's database has", async () => {
      const name = new URL(merchant.url).pathname.slice(1);
      await sql.unsafe(`ALTER DATABASE "${name}" SET DateStyle = 'SQL, DMY'`);
      try {
        const again = await intakeLedgerQuery(database.db, { url, query: QUERY });
        expect(again).toMatchObject({ rows: 2, inserted: 0, updated: 0, unchanged: 2 });
      } finally {
        await sql.unsafe(`ALTER DATABASE "${name}" RESET DateStyle`);
      }
    });

    it("refuses every row of a cycle when one breaks a rule, naming its entry_id and the rule", async () => {
      const { db } = database;
      await sql`INSERT INTO general_ledger VALUES
        ('Q-3', 'account', 'abc', 1.00, 'USD', '2026-05-03T00:00:00Z', null),
        ('Q-4', 'card_transaction', 'T0010', -2.00, 'USD', '2026-05-03T00:00:00Z', null)`;
      const before = await count(db, "ledger_entries");
      const error = await intakeLedgerQuery(db, { url, query: QUERY }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LedgerQueryError);
      expect((error as LedgerQueryError).kind).toBe("refused");
      const message = (error as Error).message;
      expect(message).toMatch(/row 3 \(entry_id Q-3\): provider_ref "abc" is not a serviceId/);
      expect(message).not.toContain("s3cret");
      expect(await count(db, "ledger_entries")).toBe(before);
      await sql`DELETE FROM general_ledger WHERE id = 'Q-3'`;
    });

    it("never names the user a refused login tried", async () => {
      const stranger = new URL(url);
      stranger.username = "alice-no-such-role";
      const error = await intakeLedgerQuery(database.db, {
        url: stranger.toString(),
        query: QUERY,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LedgerQueryError);
      expect((error as Error).message).toMatch(/28000 the server refused the login/);
      expect((error as Error).message).not.toContain("alice");
    });

    it("names the database by host, never its password, when the query cannot run", async () => {
      const error = await intakeLedgerQuery(database.db, {
        url,
        query: "SELECT * FROM no_such_table",
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LedgerQueryError);
      expect((error as LedgerQueryError).kind).toBe("failed");
      expect((error as Error).message).toMatch(/no_such_table/);
      expect((error as Error).message).not.toContain("s3cret");
      const header = await intakeLedgerQuery(database.db, {
        url,
        query: "SELECT id AS entry_id FROM general_ledger",
      }).catch((e: unknown) => e);
      expect((header as Error).message).toMatch(/missing column\(s\) kind/);
      expect((header as LedgerQueryError).kind).toBe("refused");
    });

    // Sent as a simple query, "COMMIT; DELETE …; SELECT …" (or SET TRANSACTION READ WRITE first)
    // ran every statement: the DELETE emptied the merchant's table, outside the read-only
    // transaction and its timeout, and the cycle then reported missing columns.
    it.each([
      "COMMIT; DELETE FROM general_ledger; SELECT 1",
      "SET TRANSACTION READ WRITE; DELETE FROM general_ledger; SELECT 1",
      `${QUERY.replace("ORDER BY id", "")}; DELETE FROM general_ledger`,
    ])("runs one statement only, never writing to the merchant's database: %s", async (query) => {
      const count = async () => (await sql`SELECT count(*)::int AS n FROM general_ledger`)[0]?.n;
      const before = await count();
      expect(before).toBeGreaterThan(0);
      const error = await intakeLedgerQuery(database.db, { url, query }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LedgerQueryError);
      expect((error as LedgerQueryError).kind).toBe("failed");
      expect((error as Error).message).toContain("several statements");
      expect(await count()).toBe(before);
    });

    // A row the merchant deletes from its ledger stayed in ledger_entries for good, its break
    // open. With `complete` the query is the whole ledger of its source: what it imported and
    // no longer returns goes; a file's entries, and everything when it returns nothing, stay.
    it("deletes what a complete query no longer returns, and only that", async () => {
      const { db } = database;
      await sql`CREATE TABLE gl_complete (LIKE general_ledger)`;
      await sql`INSERT INTO gl_complete VALUES
        ('K-1', 'card_transaction', 'T0101', -1.00, 'USD', '2026-05-01T09:00:00Z', null),
        ('K-2', 'card_transaction', 'T0102', -2.00, 'USD', '2026-05-01T09:00:00Z', null)`;
      const query = QUERY.replace("general_ledger", "gl_complete");
      // The source is the database: what earlier tests imported from it is not this ledger.
      await queryText(db, "DELETE FROM ledger_entries WHERE source_file LIKE 'query:%'");
      const ids = async () =>
        (
          await queryText<{ entry_id: string }>(
            db,
            "SELECT entry_id FROM ledger_entries WHERE entry_id LIKE 'K-%' ORDER BY 1",
          )
        ).map((r) => r.entry_id);
      expect(await intakeLedgerQuery(db, { url, query, complete: true })).toMatchObject({
        inserted: 2,
        deleted: 0,
      });
      const folder = temporaryFolder("ledger-complete-");
      try {
        const k3 = [HEADER, "K-3,card_transaction,T0103,-3.00,USD,2026-05-01,,,"].join("\n");
        drop(folder.path, "k.csv", k3);
        await intakeLedgerFolder(db, folder.path);
      } finally {
        folder.remove();
      }
      await sql`DELETE FROM gl_complete WHERE id = 'K-1'`;
      // Not complete: nothing is deleted.
      expect(await intakeLedgerQuery(db, { url, query })).not.toHaveProperty("deleted");
      expect(await ids()).toEqual(["K-1", "K-2", "K-3"]);
      const second = await intakeLedgerQuery(db, { url, query, complete: true });
      expect(second).toMatchObject({ rows: 1, unchanged: 1, deleted: 1 });
      expect(await ids()).toEqual(["K-2", "K-3"]);
      await sql`DELETE FROM gl_complete`;
      const empty = await intakeLedgerQuery(db, { url, query, complete: true }).catch(
        (e: unknown) => e,
      );
      expect(empty).toBeInstanceOf(LedgerQueryError);
      expect((empty as Error).message).toContain("returned no rows");
      expect(await ids()).toEqual(["K-2", "K-3"]);
      const [changed] = await queryText<{ n: string }>(
        db,
        "SELECT count(*) AS n FROM match_changes WHERE kind = 'entry' AND ref = 'K-1'",
      );
      expect(Number(changed?.n)).toBeGreaterThan(0);
    });

    // Behind a lock on the merchant's database (a migration, a VACUUM FULL) the query once
    // waited for ever: the cycle never finished and every later `schedule` tick was skipped.
    it("gives up on a query that waits on a lock, after its timeout, as a failure", async () => {
      let release: () => void = () => {};
      const released = new Promise<void>((r) => {
        release = r;
      });
      const holder = postgres(merchant.url, { max: 1, onnotice: () => {} });
      let locked: () => void = () => {};
      const isLocked = new Promise<void>((r) => {
        locked = r;
      });
      const held = holder.begin(async (tx) => {
        await tx`LOCK TABLE general_ledger IN ACCESS EXCLUSIVE MODE`;
        locked();
        await released;
      });
      try {
        await isLocked;
        const started = Date.now();
        const error = await intakeLedgerQuery(database.db, {
          url,
          query: QUERY,
          queryTimeoutMs: 1_000,
        }).catch((e: unknown) => e);
        expect(Date.now() - started).toBeLessThan(10_000);
        expect(error).toBeInstanceOf(LedgerQueryError);
        expect((error as LedgerQueryError).kind).toBe("failed");
        expect((error as Error).message).toMatch(/(57014|55P03) .*timeout.*gave up after 1000 ms/);
      } finally {
        release();
        await held;
        await holder.end({ timeout: 5 });
      }
    }, 30_000);
  },
);
