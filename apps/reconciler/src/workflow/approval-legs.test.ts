// The second-approval limit (RECONCILER_SECOND_APPROVAL_ABOVE, approvals.ts) is checked on the
// break's money in every currency it touches, each against its own currency's limit: a
// currency_mismatch whose provider side is under the USD limit but whose ledger side is over the
// EUR one waits for a second approver, for a write-off (which books both) and an accept alike.
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { seedThreeBreaks } from "../testing/breaks";
import { testBackends } from "../testing/databases";
import { useTestDatabase } from "../testing/use-database";
import { acceptOrWriteOff } from "./approvals";

describe.each(testBackends())("the second-approval limit per currency on %s", (kind) => {
  let db: Db;
  let ids: string[];
  useTestDatabase(kind, (opened) => {
    db = opened.db;
  });
  beforeAll(async () => {
    ids = await seedThreeBreaks(db);
    // L-1 (ledger -1,250.50 EUR) gets a provider side of -900.00 USD: what a run writes for
    // an entry rebooked in EUR (key-mismatch.ts).
    for (const id of ids.slice(0, 2)) {
      await queryText(
        db,
        `UPDATE breaks SET class = 'currency_mismatch', currency = 'USD', provider_amount = -900.00,
           amount = 900.00 WHERE break_id = '${id}'`,
      );
      await queryText(
        db,
        `INSERT INTO break_records (break_id, side, record_kind, record_ref, amount, currency)
         VALUES ('${id}', 'provider', 'card_transaction', 'T-${id}', -900.00, 'USD')`,
      );
    }
    // L-2 (ledger -99.99 USD) is rebooked as -1,250.50 EUR the same way.
    await queryText(db, `UPDATE breaks SET ledger_amount = -1250.50 WHERE break_id = '${ids[1]}'`);
    await queryText(
      db,
      `UPDATE break_records SET amount = -1250.50, currency = 'EUR'
       WHERE break_id = '${ids[1]}' AND side = 'ledger'`,
    );
  });
  const limits = { byCurrency: { USD: "1000", EUR: "1000" }, other: undefined };
  const journal = (id: string) =>
    queryText(db, `SELECT amount::text, currency FROM journal_entries WHERE break_id = '${id}'`);

  it("holds a write-off whose ledger side is over its currency's limit though the break's amount is not", async () => {
    const id = ids[0] as string;
    const done = await acceptOrWriteOff(
      db,
      { breakId: id, action: "write_off", actor: "ana", reason: "FX", account: "FX suspense" },
      limits,
    );
    expect(done.outcome).toBe("pending");
    expect(await journal(id)).toEqual([]);
  });

  it("holds an accept of it the same way", async () => {
    const id = ids[1] as string;
    const done = await acceptOrWriteOff(
      db,
      { breakId: id, action: "accept", actor: "ana", reason: "FX" },
      limits,
    );
    expect(done.outcome).toBe("pending");
  });

  it("applies at once when every side is within its currency's limit", async () => {
    const id = ids[2] as string; // ledger -10.00 HKD
    const done = await acceptOrWriteOff(
      db,
      { breakId: id, action: "write_off", actor: "ana", reason: "rounding", account: "6800" },
      { byCurrency: { HKD: "10" }, other: "0" },
    );
    expect(done.outcome).toBe("applied");
    expect(await journal(id)).toEqual([{ amount: "10", currency: "HKD" }]);
  });
});
