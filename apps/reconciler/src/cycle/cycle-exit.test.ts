// The cycle's exit code for its ledger sources: input someone has to fix (a file moved to
// rejected/, a query's rows that broke the rules) is 5; a source that could not run at all (the
// folder missing, the ledger database unreachable) is a failure, 1, like any step that failed.
// Either way an error line on stderr says which file or query, and why.
import { existsSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReconcilerConfig } from "../config/reconciler-config";
import { queryText } from "../db/query-rows";
import { EXIT } from "../exit-codes";
import { STREAM_BUSY, withStreamLock } from "../store/stream-lock";
import { logged } from "../testing/cli";
import { printedCycle } from "../testing/cycle";
import { openTestDatabase, type TestDatabase, temporaryFolder } from "../testing/databases";
import { dropLedgerFile, LEDGER_HEADER } from "../testing/ledger-files";

describe("the cycle's exit code for its ledger sources", () => {
  let database: TestDatabase;
  let folder: ReturnType<typeof temporaryFolder>;
  beforeAll(async () => {
    database = await openTestDatabase("pglite");
    folder = temporaryFolder("cycle-exit-");
  }, 60_000);
  afterAll(async () => {
    await database.dispose();
    folder.remove();
  });

  /** One cycle without the sync or a report, with only these ledger sources configured. */
  const cycleWith = (ledger: Pick<ReconcilerConfig, "ledgerDir" | "ledgerQuery">) =>
    printedCycle(database, ledger, { maxSyncLagMs: 1e12 });

  it("is 1 when the ledger folder cannot be read, and never creates it", async () => {
    const missing = join(folder.path, "no-such-folder");
    const { code, summary, err } = await cycleWith({ ledgerDir: missing, ledgerQuery: undefined });
    const why = `the ledger folder ${missing} (RECONCILER_LEDGER_DIR, --ledger-dir) cannot be read: ENOENT`;
    expect(summary.ledger.folder.error).toContain(why);
    expect(logged(err, "ledger folder failed")).toEqual([
      expect.objectContaining({ level: "error", error: expect.stringContaining(why) }),
    ]);
    expect(existsSync(missing)).toBe(false);
    expect(code).toBe(EXIT.failed);
  });

  it("is 1 when the ledger database cannot be reached", async () => {
    const { code, summary, err } = await cycleWith({
      ledgerDir: undefined,
      ledgerQuery: {
        url: "postgres://ro:pw@127.0.0.1:5999/gl",
        query: "SELECT 1",
        queryTimeoutMs: 5_000,
        complete: false,
      },
    });
    expect(summary.ledger.query).toEqual({
      source: "127.0.0.1:5999/gl",
      error: expect.stringMatching(/ECONNREFUSED/),
    });
    // It was silent on stderr, though the exit-code table says to read the error line.
    const [line, ...more] = logged(err, "ledger query failed");
    expect(more).toEqual([]);
    expect(line).toMatchObject({
      level: "error",
      source: "127.0.0.1:5999/gl",
      error: expect.stringMatching(/ECONNREFUSED/),
    });
    expect(err.join("\n")).not.toContain("ro:pw");
    expect(code).toBe(EXIT.failed);
  });

  it("is 5 when a file was moved to rejected/", async () => {
    const dir = join(folder.path, "drops");
    mkdirSync(dir);
    const file = join(dir, "bad.csv");
    writeFileSync(
      file,
      "entry_id,kind,provider_ref,amount,currency,booked_at\nX-1,account,abc,1,USD,2026-05-01\n",
    );
    const past = new Date(Date.now() - 60_000);
    utimesSync(file, past, past);
    // A card number typed into the amount column: quoted by the reason, masked on stderr.
    dropLedgerFile(
      dir,
      "pan.csv",
      `${LEDGER_HEADER}\nX-2,card_transaction,T1,4111 1111 1111 1111,USD,2026-05-01,,,\n`,
    );
    const { code, summary, err } = await cycleWith({ ledgerDir: dir, ledgerQuery: undefined });
    expect(summary.ledger.folder.rejected.map((f: { name: string }) => f.name)).toEqual([
      "bad.csv",
      "pan.csv",
    ]);
    // One error line per rejected file, naming it and why (it was silent on stderr).
    expect(logged(err, "ledger file rejected")).toEqual([
      expect.objectContaining({
        level: "error",
        file: "bad.csv",
        movedTo: expect.stringContaining(join(dir, "rejected")),
        reason: expect.stringMatching(/^line 2: /),
      }),
      expect.objectContaining({
        file: "pan.csv",
        reason: expect.stringMatching(/^line 2: amount/),
      }),
    ]);
    expect(err.join("\n")).not.toMatch(/4111 1111/);
    expect(code).toBe(EXIT.ledgerRejected);
  });

  it("is 1 when a file cannot be finished, and the summary keeps what the folder took in", async () => {
    const dir = join(folder.path, "unfinished");
    mkdirSync(dir);
    // imported/ cannot be made (a file has its name): good.csv is imported but not moved on.
    writeFileSync(join(dir, "imported"), "not a folder");
    dropLedgerFile(
      dir,
      "good.csv",
      `${LEDGER_HEADER}\nG-1,card_transaction,T1,-1.00,USD,2026-05-01,,,\n`,
    );
    dropLedgerFile(
      dir,
      "worse.csv",
      `${LEDGER_HEADER}\nW-1,card_transaction,T1,1e2,USD,2026-05-01,,,\n`,
    );
    dropLedgerFile(dir, "late.csv.part", LEDGER_HEADER);
    const { code, summary } = await cycleWith({ ledgerDir: dir, ledgerQuery: undefined });
    // It was { error } alone: what the tick did was left to the error's text.
    expect(summary.ledger.folder).toEqual({
      imported: [{ name: "good.csv", rows: 1, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }],
      duplicates: [],
      rejected: [expect.objectContaining({ name: "worse.csv", badRows: 1 })],
      waiting: ["late.csv.part"],
      error: expect.stringMatching(
        /^1 ledger file\(s\) not finished: good\.csv: imported 1 row.*not moved to imported\//,
      ),
    });
    expect(code).toBe(EXIT.failed);
  });

  it("is 1 when the database fails mid-import, naming the file, and keeps the folder's lists", async () => {
    const dir = join(folder.path, "database-fault");
    mkdirSync(dir);
    // As a dropped connection answers (class 08), for b.csv's rows alone.
    await queryText(
      database.db,
      `CREATE FUNCTION test_drop_b() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF NEW.entry_id LIKE 'DB-B%' THEN
           RAISE EXCEPTION 'terminating connection due to administrator command' USING ERRCODE = '08006';
         END IF;
         RETURN NEW;
       END $$`,
    );
    await queryText(
      database.db,
      `CREATE TRIGGER test_drop_b BEFORE INSERT ON ledger_entries
       FOR EACH ROW EXECUTE FUNCTION test_drop_b()`,
    );
    const file = (id: string) =>
      `${LEDGER_HEADER}\n${id},card_transaction,T1,-1.00,USD,2026-05-01,,,\n`;
    dropLedgerFile(dir, "a.csv", file("DB-A1"));
    dropLedgerFile(dir, "b.csv", file("DB-B1"));
    dropLedgerFile(dir, "c.csv", file("DB-C1"));
    dropLedgerFile(dir, "late.csv.part", LEDGER_HEADER);
    let cycle: Awaited<ReturnType<typeof cycleWith>>;
    try {
      cycle = await cycleWith({ ledgerDir: dir, ledgerQuery: undefined });
    } finally {
      await queryText(database.db, "DROP TRIGGER test_drop_b ON ledger_entries");
      await queryText(database.db, "DROP FUNCTION test_drop_b()");
    }
    const { code, summary, err } = cycle;
    // It was { error: "Error: write EPIPE" } alone: no file named, a.csv's import not listed.
    expect(summary.ledger.folder).toEqual({
      imported: [{ name: "a.csv", rows: 1, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }],
      duplicates: [],
      rejected: [],
      waiting: ["late.csv.part"],
      error: expect.stringMatching(
        /^1 ledger file\(s\) not finished: b\.csv: stopped the intake: .*terminating connection.*; it waits in processing\/.*; not tried, left for the next cycle: c\.csv$/,
      ),
    });
    expect(logged(err, "ledger file not finished")).toEqual([
      expect.objectContaining({
        level: "error",
        file: "b.csv",
        at: join(dir, "processing", "b.csv"),
      }),
    ]);
    expect(code).toBe(EXIT.failed);
  });

  it("is 3, not matched, when another worker is taking the ledger folder in", async () => {
    const dir = join(folder.path, "shared-drops");
    mkdirSync(dir);
    const runs = async () =>
      Number(
        (await queryText<{ n: string }>(database.db, "SELECT count(*) AS n FROM match_runs"))[0]?.n,
      );
    const before = await runs();
    // Held here as another worker holds it (on PGlite, in process; on a server, per session).
    const held = await withStreamLock(database.db, "ledger-folder", () =>
      cycleWith({ ledgerDir: dir, ledgerQuery: undefined }),
    );
    if (held === STREAM_BUSY) throw new Error("the folder was busy for the test itself");
    const { code, summary } = held;
    expect(summary.ledger.folder).toBe("busy");
    expect(summary.verdict).toBe("incomplete");
    expect(summary.reasons).toEqual([expect.stringMatching(/another worker .* ledger folder/)]);
    expect(summary.match).toBe("skipped");
    expect(code).toBe(EXIT.unread);
    // Nothing matched against a ledger lacking the files that worker holds.
    expect(await runs()).toBe(before);
  });

  const server = process.env.DATABASE_URL;
  it.runIf(server)("is 5 when the query's rows break the rules", async () => {
    const { code, summary, err } = await cycleWith({
      ledgerDir: undefined,
      ledgerQuery: {
        url: server as string,
        query: "SELECT 'Q-1' AS entry_id",
        queryTimeoutMs: 5_000,
        complete: false,
      },
    });
    const source = new URL(server as string);
    expect(summary.ledger.query).toEqual({
      source: `${source.host}${source.pathname}`,
      error: expect.stringMatching(/missing column\(s\) kind/),
      refused: true,
    });
    expect(logged(err, "ledger query refused")).toEqual([
      expect.objectContaining({
        level: "error",
        source: `${source.host}${source.pathname}`,
        error: expect.stringMatching(/missing column\(s\) kind/),
      }),
    ]);
    expect(code).toBe(EXIT.ledgerRejected);
  });
});
