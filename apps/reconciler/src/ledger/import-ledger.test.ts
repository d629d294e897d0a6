// Ledger import on PGlite and (with DATABASE_URL) a Postgres server: all or nothing, idempotent
// by entry_id, exact decimals, and account serviceIds queued for the sync.
import { describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { markServiceIdsFetched, serviceIdsToFetch } from "../store/service-ids";
import { testBackends } from "../testing/databases";
import { useTestDatabase } from "../testing/use-database";
import { importLedger, LedgerImportError } from "./import-ledger";

const HEADER = "entry_id,kind,provider_ref,amount,currency,booked_at,fee_type,card_id,description";
const GOOD = [
  HEADER,
  'IMP-1,card_transaction,T000000000000001,-19.83,USD,2026-05-01T10:00:00Z,,1953712585351499776,"STARBUCKS, NY"',
  "IMP-2,fee,T000000000000001,-0.40,USD,2026-05-01T10:00:00Z,EXCHANGE,1953712585351499776,exchange fee",
  "IMP-3,account,1953712585351499999,100000.00,USD,2026-05-01T09:00:00Z,,,top-up",
  "IMP-4,card_operation,req-7,-12345678901234567.89,USD,2026-05-01T08:00:00Z,,,deposit",
].join("\n");

describe.each(testBackends())("ledger import on %s", (kind) => {
  let db: Db;
  useTestDatabase(kind, (opened) => {
    db = opened.db;
  });

  const count = async (table: string) =>
    Number((await queryText<{ n: string }>(db, `SELECT count(*) AS n FROM ${table}`))[0]?.n);

  it("imports every row with exact amounts, and re-importing the file changes nothing", async () => {
    expect(await importLedger(db, GOOD, { sourceFile: "good.csv" })).toEqual({
      rows: 4,
      inserted: 4,
      updated: 0,
      unchanged: 0,
    });
    const rows = await queryText<Record<string, string>>(
      db,
      `SELECT entry_id, amount, card_id, description, fee_type, source_line FROM ledger_entries ORDER BY entry_id`,
    );
    expect(rows.map((r) => r.amount)).toEqual([
      "-19.83",
      "-0.40",
      "100000.00",
      "-12345678901234567.89",
    ]);
    expect(rows[0]).toMatchObject({ card_id: "1953712585351499776", description: "STARBUCKS, NY" });
    expect(rows[1]?.source_line).toBe(3);
    expect(await importLedger(db, GOOD)).toEqual({
      rows: 4,
      inserted: 0,
      updated: 0,
      unchanged: 4,
    });
    expect(await count("ledger_entries")).toBe(4);
    expect(await count("ledger_staging")).toBe(0);
    const [sid] = await queryText<{ source: string }>(
      db,
      `SELECT source FROM service_ids WHERE service_id = '1953712585351499999'`,
    );
    expect(sid?.source).toBe("ledger");
  });

  it("replaces an entry whose values changed (same entry_id) and adds new ones", async () => {
    const changed = `${GOOD.replace("-19.83", "-19.38")}\nIMP-5,card_transaction,T2,-1.00,EUR,2026-05-02,,,`;
    expect(await importLedger(db, changed)).toEqual({
      rows: 5,
      inserted: 1,
      updated: 1,
      unchanged: 3,
    });
  });

  it("rejects a file with a bad row, naming its line and reason, and imports nothing", async () => {
    const before = await count("ledger_entries");
    const bad = `${HEADER}\nNEW-1,card_transaction,T3,-1.00,USD,2026-05-01T10:00:00Z,,,\nNEW-2,card_transaction,T4,-1.0O,USD,2026-05-01T10:00:00Z,,,\n`;
    const error = await importLedger(db, bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LedgerImportError);
    expect((error as LedgerImportError).errors).toEqual([
      { line: 3, reason: expect.stringMatching(/^amount "-1.0O" is not a signed decimal/) },
    ]);
    expect((error as Error).message).toMatch(/nothing imported[\s\S]*line 3: amount/);
    expect(await count("ledger_entries")).toBe(before);
    expect(await count("ledger_staging")).toBe(0);
  });

  it("makes an account entry's serviceId due again when the entry is new or corrected, not when unchanged", async () => {
    const id = "1953712585350000001";
    const topUp = (amount: string, more = "") =>
      `${HEADER}\nDUE-1,account,${id},${amount},USD,2026-05-03T09:00:00Z,,,top-up\n${more}`;
    const due = async () => (await serviceIdsToFetch(db, 1000, "due")).serviceIds.includes(id);
    // Read, with re-reads off (no schedule): only a reveal makes the id due again.
    const readIt = async () => {
      const { asOf } = await serviceIdsToFetch(db, 1000, "due");
      await markServiceIdsFetched(db, [id], asOf, []);
      expect(await due()).toBe(false);
    };
    await importLedger(db, topUp("500.00"), { sourceFile: "top-up-1.csv" });
    expect(await due()).toBe(true);
    await readIt();

    await importLedger(db, topUp("500.00"), { sourceFile: "top-up-2.csv" });
    expect(await due(), "an unchanged entry").toBe(false);

    await importLedger(db, topUp("480.00"), { sourceFile: "top-up-3.csv" });
    expect(await due(), "a corrected entry").toBe(true);
    await readIt();

    const another = `DUE-2,account,${id},-20.00,USD,2026-05-03T10:00:00Z,,,fee\n`;
    await importLedger(db, topUp("480.00", another), { sourceFile: "top-up-4.csv" });
    expect(await due(), "a new entry naming a known id").toBe(true);
    const [row] = await queryText<{ parked_reason: string | null }>(
      db,
      `SELECT parked_reason FROM service_ids WHERE service_id = '${id}'`,
    );
    expect(row?.parked_reason).toBeNull();
  });

  it("loads a large file in batches", async () => {
    const lines = [HEADER];
    for (let i = 0; i < 20_000; i++)
      lines.push(
        `BULK-${i},card_transaction,T${String(i).padStart(15, "0")},-${i}.${String(i % 100).padStart(2, "0")},USD,2026-05-01T10:00:00Z,,,`,
      );
    const result = await importLedger(db, lines.join("\n"));
    expect(result).toMatchObject({ rows: 20_000, inserted: 20_000 });
    const [sum] = await queryText<{ s: string }>(
      db,
      `SELECT sum(amount) AS s FROM ledger_entries WHERE entry_id LIKE 'BULK-%'`,
    );
    expect(sum?.s).toBe("-199999900.00");
  });
});
