// The watched ledger folder when something goes wrong: rows the database refuses, a database
// that fails mid-import, a producer replacing a file while it is imported, imported/ on
// another file system, names already taken, files that cannot be read or moved, a producer
// writing in place, a producer's clock ahead. (The ordinary paths are in ledger-sources.test.ts.)
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { queryText } from "../db/query-rows";
import { type TestDatabase, temporaryFolder, testBackends } from "../testing/databases";
import { dropLedgerFile, LEDGER_HEADER } from "../testing/ledger-files";
import { useTestDatabase } from "../testing/use-database";

// Hooks set per test: run as an import starts (a producer writing meanwhile), after it committed
// (a worker killed before the move), and a file read refused (as for a file the worker's user
// may not read: the tests run as root, who may read anything).
const hooks: {
  duringImport?: () => void;
  afterImport?: () => void;
  readRefused?: (path: string) => boolean;
} = {};
vi.mock("./import-ledger", async (importOriginal) => {
  const real = await importOriginal<typeof import("./import-ledger")>();
  return {
    ...real,
    importLedger: async (...args: Parameters<typeof real.importLedger>) => {
      hooks.duringImport?.();
      const result = await real.importLedger(...args);
      hooks.afterImport?.();
      return result;
    },
  };
});
vi.mock("node:fs/promises", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs/promises")>();
  const readFile = ((path: Parameters<typeof real.readFile>[0], ...rest: never[]) =>
    hooks.readRefused?.(String(path))
      ? Promise.reject(
          Object.assign(new Error(`EACCES: permission denied, open '${String(path)}'`), {
            code: "EACCES",
          }),
        )
      : real.readFile(path, ...rest)) as typeof real.readFile;
  return { ...real, default: { ...real, readFile }, readFile };
});

const { intakeLedgerFolder, PROCESSING } = await import("./folder-source");
const { logFolderIntake } = await import("./folder-intake-log");

/** The log lines an intake calls for, parsed. */
const logged = (intake: Parameters<typeof logFolderIntake>[0]) => {
  const lines: string[] = [];
  logFolderIntake(intake, (line) => lines.push(line));
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
};

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
    hooks.afterImport = undefined;
    hooks.readRefused = undefined;
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

  // Any other database error (here one raised as a connection failure, class 08, for c.csv's
  // rows alone) is not the file's fault: the intake stops at that file, naming it and the cause,
  // keeps the lists of what it took in before (the step fails all the same), and the claimed
  // file waits in processing/ for the next cycle. Clearing the staged rows fails too (as it does
  // when the connection is gone): that never replaces the import's own error.
  it("stops at a database error naming the file and cause, keeps the lists, and takes it in next cycle", async () => {
    const fail = (name: string, errcode: string, message: string) =>
      queryText(
        database.db,
        `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           IF (CASE TG_OP WHEN 'DELETE' THEN OLD.entry_id ELSE NEW.entry_id END) LIKE 'C-%'
           THEN RAISE EXCEPTION '${message}' USING ERRCODE = '${errcode}'; END IF;
           RETURN CASE TG_OP WHEN 'DELETE' THEN OLD ELSE NEW END;
         END $$`,
      );
    await fail("test_fail_import", "08006", "connection lost mid-import");
    await fail("test_fail_cleanup", "08003", "connection gone at cleanup");
    await queryText(
      database.db,
      `CREATE TRIGGER test_fail_import BEFORE INSERT ON ledger_entries
       FOR EACH ROW EXECUTE FUNCTION test_fail_import()`,
    );
    await queryText(
      database.db,
      `CREATE TRIGGER test_fail_cleanup BEFORE DELETE ON ledger_staging
       FOR EACH ROW EXECUTE FUNCTION test_fail_cleanup()`,
    );
    drop(folder.path, "a.csv", row("A-1"));
    drop(folder.path, "b-dup.csv", row("A-1"));
    drop(folder.path, "c.csv", row("C-1"));
    drop(folder.path, "e.csv", row("E-1"));
    dropLedgerFile(folder.path, "z-fresh.csv", `${LEDGER_HEADER}\n${row("Z-1")}\n`, false);
    let intake: Awaited<ReturnType<typeof intakeLedgerFolder>>;
    try {
      intake = await intakeLedgerFolder(database.db, folder.path);
    } finally {
      await queryText(database.db, "DROP TRIGGER test_fail_import ON ledger_entries");
      await queryText(database.db, "DROP TRIGGER test_fail_cleanup ON ledger_staging");
      await queryText(database.db, "DROP FUNCTION test_fail_import()");
      await queryText(database.db, "DROP FUNCTION test_fail_cleanup()");
    }
    expect(intake.files.map((f) => [f.name, f.status])).toEqual([
      ["a.csv", "imported"],
      ["b-dup.csv", "duplicate"],
    ]);
    expect(intake.waiting).toEqual(["z-fresh.csv"]);
    expect(intake.failed).toEqual([
      {
        name: "c.csv",
        error: expect.stringMatching(
          /^stopped the intake: .*connection lost mid-import.*clearing its staged rows failed too.*connection gone at cleanup.*; it waits in processing\/ and the next cycle takes it in again$/,
        ),
        at: join(folder.path, PROCESSING, "c.csv"),
      },
    ]);
    expect(intake.error).toMatch(
      /^1 ledger file\(s\) not finished: c\.csv: stopped the intake: .*connection lost mid-import/,
    );
    expect(intake.error).toMatch(/; not tried, left for the next cycle: e\.csv$/);
    expect(logged(intake)).toEqual([
      expect.objectContaining({ msg: "ledger file not finished", file: "c.csv" }),
    ]);
    expect(csvLeft(join(folder.path, PROCESSING))).toEqual(["c.csv"]);
    expect(existsSync(join(folder.path, "rejected"))).toBe(false);

    const next = await intakeLedgerFolder(database.db, folder.path);
    expect(next.error).toBeUndefined();
    expect(next.files.map((f) => [f.name, f.status])).toEqual([
      ["c.csv", "imported"],
      ["e.csv", "imported"],
    ]);
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
      // Copied with their mtime, as a rename keeps it: the next cycle reads neither again.
      const reads: string[] = [];
      hooks.readRefused = (path) => reads.push(path) < 0;
      const next = await intakeLedgerFolder(database.db, folder.path);
      expect([next.files, next.failed, reads]).toEqual([[], [], []]);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  // The ledger_files rows of these names (the tests of a file share its database).
  const fileRows = async (...names: string[]) =>
    (
      await queryText<{ name: string; status: string; rows: number }>(
        database.db,
        `SELECT name, status, rows FROM ledger_files
         WHERE name IN (${names.map((n) => `'${n}'`).join(", ")}) ORDER BY id`,
      )
    ).map((r) => [r.name, r.status, Number(r.rows)]);
  const contents = (dir: string) =>
    readdirSync(dir)
      .sort()
      .map((n) => readFileSync(join(dir, n), "utf8"));

  // A file of the same name as one already in imported/ or rejected/, twice in one cycle (one
  // left in processing/ by a killed cycle, one dropped anew): the second move got the same
  // timestamped name as the first and replaced it, and a day's ledger file was gone.
  it("never replaces a file in imported/ or rejected/, however many share a name", async () => {
    drop(folder.path, "ledger.csv", row("N-1"));
    await intakeLedgerFolder(database.db, folder.path);
    writeFileSync(join(folder.path, PROCESSING, "ledger.csv"), `${LEDGER_HEADER}\n${row("N-2")}\n`);
    drop(folder.path, "ledger.csv", row("N-3"));
    const intake = await intakeLedgerFolder(database.db, folder.path);
    expect(intake.files.map((f) => f.status)).toEqual(["imported", "imported"]);
    const imported = contents(join(folder.path, "imported")).join("");
    for (const id of ["N-1", "N-2", "N-3"]) expect(imported).toContain(`${id},`);
    expect(readdirSync(join(folder.path, "imported"))).toHaveLength(3);

    // rejected/: a reason file left alone (its file taken away by hand) is not overwritten either.
    mkdirSync(join(folder.path, "rejected"));
    writeFileSync(join(folder.path, "rejected", "bad.csv.reason.txt"), "kept");
    drop(folder.path, "bad.csv", row("B-1", "card_transaction,T1,1e2,USD,2026-05-01,,,"));
    await intakeLedgerFolder(database.db, folder.path);
    writeFileSync(join(folder.path, PROCESSING, "bad.csv"), `${LEDGER_HEADER}\nbroken\n`);
    drop(folder.path, "bad.csv", row("B-2", "card_transaction,T1,1e3,USD,2026-05-01,,,"));
    const bad = await intakeLedgerFolder(database.db, folder.path);
    expect(bad.files.map((f) => f.status)).toEqual(["rejected", "rejected"]);
    const rejected = readdirSync(join(folder.path, "rejected"));
    expect(rejected.filter((n) => n.endsWith(".csv"))).toHaveLength(3);
    expect(rejected.filter((n) => n.endsWith(".reason.txt"))).toHaveLength(4);
    expect(readFileSync(join(folder.path, "rejected", "bad.csv.reason.txt"), "utf8")).toBe("kept");
    for (const f of bad.files)
      expect(readFileSync(`${f.movedTo}.reason.txt`, "utf8")).toMatch(/^bad\.csv: /);
  });

  // One file the worker could not read threw out of the intake: every later drop waited behind
  // it, every cycle, with nothing said about which file or why.
  it("rejects a file it cannot read on its own, with the error, and takes in the others", async () => {
    mkdirSync(join(folder.path, PROCESSING));
    writeFileSync(join(folder.path, PROCESSING, "a-left.csv"), `${LEDGER_HEADER}\n${row("U-1")}\n`);
    drop(folder.path, "b-locked.csv", row("U-2"));
    drop(folder.path, "c-fine.csv", row("U-3"));
    hooks.readRefused = (path) => !path.endsWith("c-fine.csv");
    const intake = await intakeLedgerFolder(database.db, folder.path);
    expect(intake.files.map((f) => [f.name, f.status])).toEqual([
      ["a-left.csv", "rejected"],
      ["b-locked.csv", "rejected"],
      ["c-fine.csv", "imported"],
    ]);
    expect(intake.files[0]?.reason).toMatch(/EACCES: permission denied/);
    expect(readFileSync(join(folder.path, "rejected", "b-locked.csv.reason.txt"), "utf8")).toMatch(
      /^b-locked\.csv: the file cannot be read, nothing imported\n.*EACCES/,
    );
    expect(intake.failed).toEqual([]);
    expect(await ids("U-%")).toEqual(["U-3"]);
    expect(csvLeft(join(folder.path, PROCESSING))).toEqual([]);
  });

  // imported/ the worker could not write to: the import committed, the move threw, the summary
  // left the import out, and every later cycle found the file again and added a `duplicate` row.
  it("reports a file it imported but could not move, once, and moves it when it can", async () => {
    writeFileSync(join(folder.path, "imported"), "not a folder");
    drop(folder.path, "m-a.csv", row("M-1"));
    drop(folder.path, "m-b.csv", row("M-2", "card_transaction,T1,1e2,USD,2026-05-01,,,"));
    const first = await intakeLedgerFolder(database.db, folder.path);
    expect(first.files.map((f) => [f.name, f.status, f.rows])).toEqual([
      ["m-a.csv", "imported", 1],
      ["m-b.csv", "rejected", 1],
    ]);
    expect(first.failed.map((f) => f.name)).toEqual(["m-a.csv"]);
    expect(first.failed[0]?.error).toMatch(/not moved to imported\//);
    expect(first.error).toMatch(/m-a\.csv: imported 1 row.*not moved to imported\//);
    for (let cycle = 0; cycle < 2; cycle++) {
      const again = await intakeLedgerFolder(database.db, folder.path);
      expect(again.files).toEqual([]);
      expect(again.failed.map((f) => f.name)).toEqual(["m-a.csv"]);
    }
    expect(await fileRows("m-a.csv", "m-b.csv")).toEqual([
      ["m-a.csv", "imported", 1],
      ["m-b.csv", "rejected", 1],
    ]);
    rmSync(join(folder.path, "imported"));
    const fixed = await intakeLedgerFolder(database.db, folder.path);
    expect(fixed.files.map((f) => [f.name, f.status])).toEqual([["m-a.csv", "duplicate"]]);
    expect(fixed.failed).toEqual([]);
    expect("error" in fixed).toBe(false);
    expect(contents(join(folder.path, "imported"))).toEqual([`${LEDGER_HEADER}\n${row("M-1")}\n`]);
    expect(csvLeft(join(folder.path, PROCESSING))).toEqual([]);
    expect(await ids("M-%")).toEqual(["M-1"]);
  });

  // The worker killed (or its database gone) after the import committed, before the move: the
  // file is recorded as imported and still in processing/. The next cycle moves it on, without
  // importing it again.
  it("finishes the move of a file whose import committed before the cycle died", async () => {
    drop(folder.path, "killed.csv", row("K-1"));
    hooks.afterImport = () => {
      throw new Error("write CONNECTION_CLOSED db:5432");
    };
    const died = await intakeLedgerFolder(database.db, folder.path);
    hooks.afterImport = undefined;
    expect(died.failed.map((f) => f.name)).toEqual(["killed.csv"]);
    expect(died.error).toMatch(/killed\.csv: stopped the intake: .*CONNECTION_CLOSED/);
    expect(csvLeft(join(folder.path, PROCESSING))).toEqual(["killed.csv"]);
    const next = await intakeLedgerFolder(database.db, folder.path);
    expect(next.files.map((f) => [f.name, f.status])).toEqual([["killed.csv", "duplicate"]]);
    expect(csvLeft(join(folder.path, PROCESSING))).toEqual([]);
    expect(csvLeft(join(folder.path, "imported"))).toEqual(["killed.csv"]);
    expect(await fileRows("killed.csv")).toEqual([
      ["killed.csv", "imported", 1],
      ["killed.csv", "duplicate", 0],
    ]);
  });

  // A producer writing in place that paused past the settle time: half its rows were imported,
  // imported/ then held the whole file and ledger_files the hash of the half, and nothing said so.
  it("says so when a file changed while it was taken in, and takes the whole file next cycle", async () => {
    drop(folder.path, "inplace.csv", row("W-1"));
    hooks.duringImport = () =>
      appendFileSync(
        join(folder.path, PROCESSING, "inplace.csv"),
        `${row("W-2", "card_transaction,T2,-2.00,USD,2026-05-01,,,")}\n`,
      );
    const first = await intakeLedgerFolder(database.db, folder.path);
    hooks.duringImport = undefined;
    expect(first.files.map((f) => [f.name, f.status, f.rows])).toEqual([
      ["inplace.csv", "imported", 1],
    ]);
    expect(first.failed.map((f) => f.name)).toEqual(["inplace.csv"]);
    expect(first.failed[0]?.error).toMatch(/changed while it was taken in/);
    expect(first.error).toMatch(/inplace\.csv: changed while it was taken in/);
    expect(logged(first)).toMatchObject([
      { level: "error", msg: "ledger file not finished", file: "inplace.csv" },
    ]);
    // The evidence: what was imported is recorded; the whole file waits in processing/.
    expect(csvLeft(join(folder.path, PROCESSING))).toEqual(["inplace.csv"]);
    expect(await ids("W-%")).toEqual(["W-1"]);
    const next = await intakeLedgerFolder(database.db, folder.path);
    expect(next.files.map((f) => [f.name, f.status, f.rows, f.inserted])).toEqual([
      ["inplace.csv", "imported", 2, 1],
    ]);
    expect(next.failed).toEqual([]);
    expect(await ids("W-%")).toEqual(["W-1", "W-2"]);
    expect(await fileRows("inplace.csv")).toEqual([
      ["inplace.csv", "imported", 1],
      ["inplace.csv", "imported", 2],
    ]);
    expect(contents(join(folder.path, "imported"))).toHaveLength(1);
  });

  // A producer writing in place that paused past the settle time and went on after the cycle's
  // check: the cycle said imported (1 row), the file grew in imported/ and no later cycle ever
  // looked again; the rows written late were lost without a word.
  it("notices a file that grew in imported/ after its cycle, and takes it in whole", async () => {
    drop(folder.path, "grow.csv", row("GR-1"));
    const first = await intakeLedgerFolder(database.db, folder.path);
    expect(first.files.map((f) => [f.name, f.status, f.rows])).toEqual([
      ["grow.csv", "imported", 1],
    ]);
    expect(first.failed).toEqual([]);
    appendFileSync(
      join(folder.path, "imported", "grow.csv"),
      `${row("GR-2", "card_transaction,T2,-2.00,USD,2026-05-01,,,")}\n`,
    );
    const second = await intakeLedgerFolder(database.db, folder.path);
    expect(second.files).toEqual([]);
    expect(second.failed.map((f) => [f.name, f.at])).toEqual([
      ["grow.csv", join(folder.path, PROCESSING, "grow.csv")],
    ]);
    expect(second.failed[0]?.error).toMatch(
      /changed after it was taken in.*moved back to processing/,
    );
    expect(second.error).toMatch(/grow\.csv: changed after it was taken in/);
    expect(logged(second)).toMatchObject([
      { level: "error", msg: "ledger file not finished", file: "grow.csv" },
    ]);
    expect(csvLeft(join(folder.path, "imported"))).toEqual([]);
    expect(await ids("GR-%")).toEqual(["GR-1"]);
    const third = await intakeLedgerFolder(database.db, folder.path);
    expect(third.files.map((f) => [f.name, f.status, f.rows, f.inserted])).toEqual([
      ["grow.csv", "imported", 2, 1],
    ]);
    expect(third.failed).toEqual([]);
    expect(await ids("GR-%")).toEqual(["GR-1", "GR-2"]);
    expect(await fileRows("grow.csv")).toEqual([
      ["grow.csv", "imported", 1],
      ["grow.csv", "imported", 2],
    ]);
    const fourth = await intakeLedgerFolder(database.db, folder.path);
    expect([fourth.files, fourth.failed, "error" in fourth]).toEqual([[], [], false]);
    expect(csvLeft(join(folder.path, "imported"))).toEqual(["grow.csv"]);
  });

  // Rewritten in place to the same size (an amount corrected digit for digit): only the sha256
  // tells, and it is computed because the file was written after its move to imported/.
  it("notices a file in imported/ rewritten in place to the same size", async () => {
    drop(folder.path, "same.csv", row("SM-1"));
    await intakeLedgerFolder(database.db, folder.path);
    const path = join(folder.path, "imported", "same.csv");
    const before = readFileSync(path, "utf8");
    writeFileSync(path, before.replace("-1.00", "-2.00"));
    expect(readFileSync(path).length).toBe(Buffer.byteLength(before));
    const second = await intakeLedgerFolder(database.db, folder.path);
    expect(second.failed.map((f) => f.name)).toEqual(["same.csv"]);
    expect(second.failed[0]?.error).toMatch(/changed after it was taken in/);
    const third = await intakeLedgerFolder(database.db, folder.path);
    expect(third.files.map((f) => [f.name, f.status, f.rows, f.updated])).toEqual([
      ["same.csv", "imported", 1, 1],
    ]);
    expect(third.failed).toEqual([]);
  });

  // The same name dropped every day: the later files sit in imported/ under a timed name.
  it("re-checks a file imported under a timed name", async () => {
    drop(folder.path, "daily.csv", row("DY-1"));
    await intakeLedgerFolder(database.db, folder.path);
    drop(folder.path, "daily.csv", row("DY-2", "card_transaction,T2,-2.00,USD,2026-05-01,,,"));
    const again = await intakeLedgerFolder(database.db, folder.path);
    const timed = again.files[0]?.movedTo as string;
    expect(timed).toMatch(/imported\/daily\.\d{4}-.*Z\.csv$/);
    appendFileSync(timed, `${row("DY-3", "card_transaction,T3,-3.00,USD,2026-05-01,,,")}\n`);
    const second = await intakeLedgerFolder(database.db, folder.path);
    expect(second.failed.map((f) => [f.name, f.at])).toEqual([
      ["daily.csv", join(folder.path, PROCESSING, "daily.csv")],
    ]);
    const third = await intakeLedgerFolder(database.db, folder.path);
    expect(third.files.map((f) => [f.name, f.status, f.rows, f.inserted])).toEqual([
      ["daily.csv", "imported", 2, 1],
    ]);
    expect(await ids("DY-%")).toEqual(["DY-1", "DY-2", "DY-3"]);
    expect(csvLeft(join(folder.path, "imported"))).toHaveLength(2);
  });

  // The re-check costs a stat per recent file: a file not written since its move (its mode
  // changed, even) is not read again; one written is hashed, and passes if that content was
  // imported. After 24 hours a file is no longer re-checked (the limit docs/reconciler.md states).
  it("reads no unchanged file again, and re-checks for 24 hours only", async () => {
    drop(folder.path, "calm.csv", row("CM-1"));
    drop(folder.path, "late.csv", row("CM-2", "card_transaction,T2,-2.00,USD,2026-05-01,,,"));
    drop(folder.path, "touched.csv", row("CM-3", "card_transaction,T3,-3.00,USD,2026-05-01,,,"));
    await intakeLedgerFolder(database.db, folder.path);
    const imported = join(folder.path, "imported");
    chmodSync(join(imported, "calm.csv"), 0o600);
    // Written again with the same bytes: read, and found imported.
    writeFileSync(join(imported, "touched.csv"), readFileSync(join(imported, "touched.csv")));
    const reads: string[] = [];
    hooks.readRefused = (path) => {
      reads.push(path);
      return false;
    };
    const second = await intakeLedgerFolder(database.db, folder.path);
    expect([second.files, second.failed]).toEqual([[], []]);
    expect(reads).toEqual([join(imported, "touched.csv")]);
    appendFileSync(join(imported, "late.csv"), `${row("CM-4")}\n`);
    // Its name still has a row of the last 25 hours, but the file was moved over 24 hours ago.
    const dayLater = new Date(Date.now() + 24.5 * 3600_000);
    reads.length = 0;
    const late = await intakeLedgerFolder(database.db, folder.path, { now: dayLater });
    expect([late.files, late.failed, reads]).toEqual([[], [], []]);
  });

  // A producer whose clock runs ahead: its finished file looked "changed moments ago" until
  // the worker's clock caught up (3 hours here; for ever with a clock years ahead), every run
  // exit 0 without a word. It is taken once seen unchanged for the settle time, and named.
  it("takes a file dated ahead of the clock once it stays unchanged, and names it", async () => {
    const ahead = new Date(Date.now() + 3 * 3600_000);
    drop(folder.path, "early.csv", row("T-1"));
    drop(folder.path, "growing.csv", row("T-2", "card_transaction,T2,-2.00,USD,2026-05-01,,,"));
    for (const name of ["early.csv", "growing.csv"])
      utimesSync(join(folder.path, name), ahead, ahead);
    const writer = setTimeout(() => {
      appendFileSync(join(folder.path, "growing.csv"), `${row("T-3")}\n`);
      utimesSync(join(folder.path, "growing.csv"), ahead, new Date(ahead.getTime() + 1_000));
    }, 100);
    const intake = await intakeLedgerFolder(database.db, folder.path, { settleMs: 400 });
    clearTimeout(writer);
    expect(intake.files.map((f) => [f.name, f.status])).toEqual([["early.csv", "imported"]]);
    expect(intake.waiting).toEqual(["growing.csv"]);
    expect(intake.aheadOfClock.map((f) => f.name)).toEqual(["early.csv", "growing.csv"]);
    expect(intake.aheadOfClock[0]?.aheadMs).toBeGreaterThan(3 * 3600_000 - 60_000);
    const [warning, ...more] = logged(intake);
    expect(more).toEqual([]);
    expect(warning).toMatchObject({
      level: "warn",
      files: [{ name: "early.csv" }, { name: "growing.csv" }],
    });
    expect(await ids("T-%")).toEqual(["T-1"]);
  });
});
