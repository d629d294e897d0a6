// The watched ledger folder when something goes wrong: rows the database refuses, a database
// that fails mid-import, a producer replacing a file while it is imported, imported/ on
// another file system. (The ordinary paths are in ledger-sources.test.ts.)
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { queryText } from "../db/query-rows";
import { sqlState } from "../db/sql-state";
import { type TestDatabase, temporaryFolder, testBackends } from "../db/test-databases";
import { useTestDatabase } from "../db/use-test-database";
import { dropLedgerFile, LEDGER_HEADER } from "./test-ledger-files";

// A hook run as an import starts (a producer writing meanwhile), set per test.
const hooks: { duringImport?: () => void } = {};
vi.mock("./import-ledger", async (importOriginal) => {
  const real = await importOriginal<typeof import("./import-ledger")>();
  return {
    ...real,
    importLedgerEntries: async (...args: Parameters<typeof real.importLedgerEntries>) => {
      hooks.duringImport?.();
      return real.importLedgerEntries(...args);
    },
  };
});

const { intakeLedgerFolder, PROCESSING } = await import("./folder-source");

const row = (id: string, rest = "card_transaction,T1,-1.00,USD,2026-05-01,,,") => `${id},${rest}`;

const drop = (folder: string, name: string, ...rows: string[]) =>
  dropLedgerFile(folder, name, `${[LEDGER_HEADER, ...rows].join("\n")}\n`);

describe.each(testBackends())("the ledger folder under failures on %s", (kind) => {
  let database: TestDatabase;
  let folder: ReturnType<typeof temporaryFolder>;
  useTestDatabase(kind, (opened) => {
    database = opened;
  });
  beforeEach(() => {
    hooks.duringImport = undefined;
    folder = temporaryFolder("ledger-failures-");
    return () => folder.remove();
  });

  const ids = async (like: string) =>
    (
      await queryText<{ entry_id: string }>(
        database.db,
        `SELECT entry_id FROM ledger_entries WHERE entry_id LIKE '${like}' ORDER BY entry_id`,
      )
    ).map((r) => r.entry_id);
  const csvLeft = (dir: string) => readdirSync(dir).filter((n) => n.endsWith(".csv"));

  // Postgres has no year 0000, refuses the "+010000-…" of year 10000 and cannot store a NUL in
  // text: each once threw out of the whole intake, blocking every later file every cycle.
  it.each([
    ["booked_at in year 0000", row("A-1", "card_transaction,T1,-1.00,USD,0000-06-01,,,")],
    [
      "booked_at past 9999 after its offset",
      row("A-1", "card_transaction,T1,-1.00,USD,9999-12-31T23:00:00-05:00,,,"),
    ],
    ["a NUL in description", row("A-1", "card_transaction,T1,-1.00,USD,2026-05-01,,,x\u0000y")],
  ])("rejects a row with %s on its own, and takes in the next file", async (_what, poison) => {
    drop(folder.path, "a-poison.csv", poison);
    drop(folder.path, "b-good.csv", row("G-1"));
    for (let cycle = 0; cycle < 2; cycle++) await intakeLedgerFolder(database.db, folder.path);
    expect(existsSync(join(folder.path, "rejected", "a-poison.csv"))).toBe(true);
    expect(readFileSync(join(folder.path, "rejected", "a-poison.csv.reason.txt"), "utf8")).toMatch(
      /line 2: (booked_at|description)/,
    );
    expect(await ids("A-%")).toEqual([]);
    expect(await ids("G-%")).toEqual(["G-1"]);
  });

  // A row the checks pass but the database refuses (here a constraint the test adds): the file
  // is rejected with the database's message, nothing of it imported, and the next file goes in.
  it("rejects a file whose rows the database refuses, with the database's reason", async () => {
    await queryText(
      database.db,
      "ALTER TABLE ledger_entries ADD CONSTRAINT test_no_poison CHECK (entry_id <> 'D-POISON')",
    );
    try {
      drop(
        folder.path,
        "a.csv",
        row("D-1"),
        row("D-POISON", "card_transaction,T2,-1.00,USD,2026-05-01,,,"),
      );
      drop(folder.path, "b.csv", row("D-2", "card_transaction,T3,-1.00,USD,2026-05-01,,,"));
      const intake = await intakeLedgerFolder(database.db, folder.path);
      expect(intake.files.map((f) => [f.name, f.status])).toEqual([
        ["a.csv", "rejected"],
        ["b.csv", "imported"],
      ]);
      expect(intake.files[0]?.reason).toMatch(/^23514 .*test_no_poison/);
      const reason = readFileSync(join(folder.path, "rejected", "a.csv.reason.txt"), "utf8");
      expect(reason).toMatch(/^a\.csv: the database refused a row, nothing imported\n23514 /);
      expect(await ids("D-%")).toEqual(["D-2"]);
    } finally {
      await queryText(database.db, "ALTER TABLE ledger_entries DROP CONSTRAINT test_no_poison");
    }
  });

  // Any other database error (here one raised as a connection failure, class 08) is not the
  // file's fault: the intake fails, and the claimed file waits in processing/ for the next one.
  it("fails on other database errors and takes the claimed file in on the next cycle", async () => {
    await queryText(
      database.db,
      `CREATE FUNCTION test_fail_import() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'connection lost' USING ERRCODE = '08006'; END $$`,
    );
    await queryText(
      database.db,
      `CREATE TRIGGER test_fail_import BEFORE INSERT ON ledger_entries
       FOR EACH ROW EXECUTE FUNCTION test_fail_import()`,
    );
    drop(folder.path, "c.csv", row("C-1"));
    try {
      const error = await intakeLedgerFolder(database.db, folder.path).catch((e: unknown) => e);
      expect(sqlState(error)).toBe("08006");
    } finally {
      await queryText(database.db, "DROP TRIGGER test_fail_import ON ledger_entries");
      await queryText(database.db, "DROP FUNCTION test_fail_import()");
    }
    expect(csvLeft(join(folder.path, PROCESSING))).toEqual(["c.csv"]);
    expect(existsSync(join(folder.path, "rejected"))).toBe(false);
    const next = await intakeLedgerFolder(database.db, folder.path);
    expect(next.files.map((f) => [f.name, f.status])).toEqual([["c.csv", "imported"]]);
    expect(await ids("C-%")).toEqual(["C-1"]);
    expect(csvLeft(join(folder.path, PROCESSING))).toEqual([]);
  });

  // The producer replaces the file (write, then rename over it) while its import is in flight:
  // the new content is a new file, taken in by a later cycle, never moved on unread.
  it("never moves content to imported/ that it did not import", async () => {
    const path = join(folder.path, "export.csv");
    drop(folder.path, "export.csv", row("R-1"));
    hooks.duringImport = () => {
      writeFileSync(
        `${path}.tmp`,
        `${LEDGER_HEADER}\n${row("R-2", "card_transaction,T2,-2.00,USD,2026-05-01,,,")}\n`,
      );
      renameSync(`${path}.tmp`, path);
    };
    const first = await intakeLedgerFolder(database.db, folder.path);
    hooks.duringImport = undefined;
    expect(first.files.map((f) => f.status)).toEqual(["imported"]);
    // The replacement stays at the old name, for a later cycle.
    expect(readFileSync(path, "utf8")).toContain("R-2");
    expect(readFileSync(join(folder.path, "imported", "export.csv"), "utf8")).toContain("R-1");
    const second = await intakeLedgerFolder(database.db, folder.path, { settleMs: 0 });
    expect(second.files.map((f) => f.status)).toEqual(["imported"]);
    expect(readFileSync(second.files[0]?.movedTo as string, "utf8")).toContain("R-2");
    expect(await ids("R-%")).toEqual(["R-1", "R-2"]);
  });

  // A Kubernetes ConfigMap or Secret volume presents its files as relative symlinks
  // (export.csv -> ..data/export.csv): once skipped without a word, every cycle.
  it("takes in a *.csv that is a symlink, by its target's content, and leaves the target", async () => {
    const data = join(folder.path, "..data");
    drop(folder.path, "target.csv", row("L-1"));
    renameSync(join(folder.path, "target.csv"), join(folder.path, "..target.csv"));
    symlinkSync("..target.csv", join(folder.path, "linked.csv"));
    symlinkSync(join(data, "missing.csv"), join(folder.path, "dangling.csv"));
    const intake = await intakeLedgerFolder(database.db, folder.path);
    expect(intake.files.map((f) => [f.name, f.status])).toEqual([["linked.csv", "imported"]]);
    expect(intake.waiting).toEqual(["dangling.csv"]);
    expect(await ids("L-%")).toEqual(["L-1"]);
    expect(readFileSync(join(folder.path, "imported", "linked.csv"), "utf8")).toContain("L-1");
    expect(readFileSync(join(folder.path, "..target.csv"), "utf8")).toContain("L-1");
  });

  // imported/ on another file system (a mount, or a symlink as here): rename fails with EXDEV
  // after the commit, once found again every cycle and blocking every later file.
  it("moves files to imported/ on another device", async () => {
    const other = mkdtempSync(join("/dev/shm", "ledger-imported-"));
    try {
      symlinkSync(other, join(folder.path, "imported"));
      drop(folder.path, "a.csv", row("X-1"));
      drop(folder.path, "b.csv", row("X-2", "card_transaction,T2,-1.00,USD,2026-05-01,,,"));
      const intake = await intakeLedgerFolder(database.db, folder.path);
      expect(intake.files.map((f) => f.status)).toEqual(["imported", "imported"]);
      expect(await ids("X-%")).toEqual(["X-1", "X-2"]);
      expect(csvLeft(folder.path)).toEqual([]);
      expect(csvLeft(join(folder.path, PROCESSING))).toEqual([]);
      expect(readdirSync(other).sort()).toEqual(["a.csv", "b.csv"]);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});
