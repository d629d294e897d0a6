// copyRows on both drivers: lines arrive exactly as written, and a COPY the server refuses
// rejects with the server's error (on postgres.js it used to wait forever) and leaves the
// database answering.
import { describe, expect, it } from "vitest";
import { type TestDatabase, testBackends } from "../testing/databases";
import { useTestDatabase } from "../testing/use-database";
import { copyField, copyLine, copyRows } from "./copy-rows";
import { queryText } from "./query-rows";

const COLUMNS = ["entry_id", "kind", "provider_ref", "amount", "currency", "booked_at"];
const line = (id: string, ref = "T1") =>
  copyLine([
    copyField(id),
    "card_transaction",
    copyField(ref),
    "-1.00",
    "USD",
    "2026-05-01T00:00:00Z",
  ]);

describe.each(testBackends())("copyRows on %s", (kind) => {
  let database: TestDatabase;
  useTestDatabase(kind, (opened) => {
    database = opened;
  });

  it("copies every line exactly, escapes included", async () => {
    await copyRows(database.db, {
      table: "ledger_entries",
      columns: COLUMNS,
      lines: [line("E1", "tab\there"), line("E2", "back\\slash\nnewline")],
    });
    const rows = await queryText<{ entry_id: string; provider_ref: string }>(
      database.db,
      "SELECT entry_id, provider_ref FROM ledger_entries ORDER BY entry_id",
    );
    expect(rows).toEqual([
      { entry_id: "E1", provider_ref: "tab\there" },
      { entry_id: "E2", provider_ref: "back\\slash\nnewline" },
    ]);
  });

  it("rejects with the server's error when the server refuses the copy, and nothing of it stays", async () => {
    const refused = copyRows(database.db, {
      table: "ledger_entries",
      columns: COLUMNS,
      // E3 is new, E1 is already there: the server refuses the whole COPY at its end.
      lines: [line("E3"), line("E1")],
    });
    await expect(refused).rejects.toThrow(/duplicate key/);
    const [row] = await queryText<{ n: string }>(
      database.db,
      "SELECT count(*) AS n FROM ledger_entries WHERE entry_id = 'E3'",
    );
    expect(row?.n).toBe("0");
  }, 20_000);
});
