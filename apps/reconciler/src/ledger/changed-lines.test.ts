// A ledger file imported again under its name reads only the lines that changed, and gives what
// reading it whole gives: the same entries, the same refusals with the file's line numbers; it
// reads the whole file when the table no longer holds what its last import left.
import { beforeEach, describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { testBackends } from "../testing/databases";
import { LEDGER_HEADER } from "../testing/ledger-files";
import { useTestDatabase } from "../testing/use-database";
import { diffLines, rememberLines } from "./changed-lines";
import { importLedger, LedgerImportError } from "./import-ledger";

const line = (id: string, amount = "-10.00", description = "coffee") =>
  `${id},card_transaction,T-${id},${amount},USD,2026-05-01T10:00:00Z,,,"${description}, to go"`;
const file = (...lines: string[]) => `${LEDGER_HEADER}\n${lines.join("\n")}\n`;
const ORIGINAL = file(line("E1"), line("E2"), line("E3"), line("E4"));

describe.each(testBackends())("a ledger file imported again, on %s", (kind) => {
  let db: Db;
  useTestDatabase(kind, (database) => {
    db = database.db;
  });
  const amounts = async () =>
    Object.fromEntries(
      (
        await queryText<{ entry_id: string; amount: string }>(
          db,
          "SELECT entry_id, amount::text FROM ledger_entries ORDER BY entry_id",
        )
      ).map((r) => [r.entry_id, r.amount]),
    );

  beforeEach(async () => {
    await queryText(db, "TRUNCATE ledger_entries, ledger_source_files");
    await importLedger(db, ORIGINAL, { sourceFile: "gl.csv" });
  });

  it("reads only the changed and new lines, and counts every line of the file", async () => {
    const next = file(line("E1"), line("E2", "-10.01"), line("E3"), line("E4"), line("E5"));
    const diff = await diffLines(db, "gl.csv", next);
    expect(diff.kind === "changed" && diff.text).toBe(file(line("E2", "-10.01"), line("E5")));
    const result = await importLedger(db, next, { sourceFile: "gl.csv" });
    expect(result).toMatchObject({ rows: 5, inserted: 1, updated: 1, unchanged: 3 });
    expect(await amounts()).toEqual({
      E1: "-10.00",
      E2: "-10.01",
      E3: "-10.00",
      E4: "-10.00",
      E5: "-10.00",
    });
    // And again: nothing changed, nothing read.
    const same = await diffLines(db, "gl.csv", next);
    expect(same.kind === "changed" && same.text).toBe(`${LEDGER_HEADER}\n`);
  });

  it("reads nothing of lines that only moved, and keeps their entries for the next import", async () => {
    // E4 first, E2 last, E3 changed in between: only E3's line is read.
    const moved = file(line("E4"), line("E1"), line("E3", "-3.00"), line("E2"));
    const diff = await diffLines(db, "gl.csv", moved);
    expect(diff.kind === "changed" && diff.text).toBe(file(line("E3", "-3.00")));
    expect(await importLedger(db, moved, { sourceFile: "gl.csv" })).toMatchObject({
      rows: 4,
      updated: 1,
      unchanged: 3,
    });
    // The moved lines' entry ids were kept: a line repeating one of them is refused as it
    // would be on a whole read, naming the kept line.
    const repeated = file(
      line("E4"),
      line("E1"),
      line("E3", "-3.00"),
      line("E2"),
      line("E1", "-1.00"),
    );
    const error = await importLedger(db, repeated, { sourceFile: "gl.csv" }).catch(
      (e: unknown) => e,
    );
    expect((error as LedgerImportError).errors).toEqual([
      { line: 6, reason: 'entry_id "E1" already appears on line 3' },
    ]);
    // A moved line twice (one copy in the place it was kept at) is read whole.
    expect((await diffLines(db, "gl.csv", file(line("E4"), line("E4")))).kind).toBe("whole");
  });

  it("refuses a bad changed line and a repeated entry_id with the file's line numbers", async () => {
    const bad = file(line("E1"), line("E2"), line("E3", "ten"), line("E4"), line("E2", "-3.00"));
    const error = await importLedger(db, bad, { sourceFile: "gl.csv" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LedgerImportError);
    const errors = (error as LedgerImportError).errors;
    expect(errors.map((e) => e.line)).toEqual([4, 6]);
    expect(errors[1]?.reason).toContain('entry_id "E2" already appears on line 3');
    expect(await amounts()).toMatchObject({ E2: "-10.00", E3: "-10.00" });
  });

  it("reads the whole file when the table no longer holds what its last import left", async () => {
    // An entry of the file changed by hand: the whole read puts the file's value back.
    await queryText(
      db,
      "UPDATE ledger_entries SET amount = -99, updated_at = now() + interval '1 second' WHERE entry_id = 'E3'",
    );
    expect((await diffLines(db, "gl.csv", ORIGINAL)).kind).toBe("whole");
    await importLedger(db, ORIGINAL, { sourceFile: "gl.csv" });
    expect((await amounts()).E3).toBe("-10.00");
    // An entry of the file taken over by another file.
    await importLedger(db, file(line("E4", "-4.00")), { sourceFile: "other.csv" });
    expect((await diffLines(db, "gl.csv", ORIGINAL)).kind).toBe("whole");
    // Another header, a record spanning lines, a line twice.
    await importLedger(db, ORIGINAL, { sourceFile: "gl.csv" });
    const renamed = ORIGINAL.replace(LEDGER_HEADER, LEDGER_HEADER.replace("entry_id", "ENTRY_ID"));
    expect((await diffLines(db, "gl.csv", renamed)).kind).toBe("whole");
    expect((await diffLines(db, "gl.csv", file(line("E1", "-1.00", "two\nlines")))).kind).toBe(
      "whole",
    );
    expect((await diffLines(db, "gl.csv", file(line("E1"), line("E1")))).kind).toBe("whole");
  });

  it("keeps nothing when another import of the file committed in between", async () => {
    const diff = await diffLines(db, "gl.csv", ORIGINAL);
    if (diff.kind !== "changed") throw new Error("expected the changed lines");
    await importLedger(db, file(line("E1", "-2.00")), { sourceFile: "gl.csv" });
    await expect(
      db.transaction((tx) => rememberLines(tx, "gl.csv", { ...diff, entryIdOfLine: new Map() })),
    ).rejects.toThrow("gl.csv was imported by another process meanwhile");
  });
});
