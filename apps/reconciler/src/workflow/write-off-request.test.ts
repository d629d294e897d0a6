// A write-off of a break with nothing to adjust (its records agree in every currency: signed
// effect zero) is refused when it is asked for, with a WorkflowError naming the rule
// (NOTHING_TO_WRITE_OFF): the CLI's and console's write-off at once, and a console write-off held
// for a second approver before any request is stored, not only when the second approver approves.
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { seedThreeBreaks } from "../testing/breaks";
import { testBackends } from "../testing/databases";
import { useTestDatabase } from "../testing/use-database";
import { acceptOrWriteOff } from "./approvals";
import { WorkflowError } from "./workflow-error";
import { NOTHING_TO_WRITE_OFF, writeOffBreak } from "./write-off";

async function failure(promise: Promise<unknown>): Promise<WorkflowError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof WorkflowError) return error;
    throw error;
  }
  throw new Error("expected a WorkflowError");
}

const counts = async (db: Db) =>
  (
    await queryText<{ requests: string; actions: string; journal: string }>(
      db,
      `SELECT (SELECT count(*) FROM approval_requests) AS requests,
        (SELECT count(*) FROM break_actions) AS actions,
        (SELECT count(*) FROM journal_entries) AS journal`,
    )
  )[0];

describe.each(testBackends())("a write-off with nothing to adjust on %s", (kind) => {
  let db: Db;
  let ids: string[];
  useTestDatabase(kind, (opened) => {
    db = opened.db;
  });
  beforeAll(async () => {
    ids = await seedThreeBreaks(db);
    // Break L-3 (ledger -10.00 HKD) gets a provider record of the same -10.00 HKD: nothing differs.
    await queryText(
      db,
      `INSERT INTO break_records (break_id, side, record_kind, record_ref, amount, currency)
       VALUES ('${ids[2]}', 'provider', 'card_transaction', 'T-3', -10.00, 'HKD')`,
    );
  });
  // Every amount above 1 waits for a second approver.
  const limits = { byCurrency: {}, other: "1" };
  const writeOff = (breakId: string) => ({
    breakId,
    action: "write_off" as const,
    actor: "alice",
    reason: "rounding",
    account: "6800",
  });

  it("refuses the request for a second approval at once, naming the rule; stores nothing", async () => {
    const before = await counts(db);
    const refused = await failure(acceptOrWriteOff(db, writeOff(ids[2] as string), limits));
    expect([refused.code, refused.rule, refused.field]).toEqual([
      "conflict",
      NOTHING_TO_WRITE_OFF,
      "breakId",
    ]);
    expect(refused.message).toMatch(/has no difference to write off .*signed effect is zero/);
    expect(await counts(db)).toEqual(before);
    // A break with a difference is held as before.
    const held = await acceptOrWriteOff(db, writeOff(ids[1] as string), limits);
    expect(held.outcome).toBe("pending");
  });

  it("refuses a write-off applied at once the same way", async () => {
    const before = await counts(db);
    const refused = await failure(writeOffBreak(db, writeOff(ids[2] as string)));
    expect([refused.code, refused.rule]).toEqual(["conflict", NOTHING_TO_WRITE_OFF]);
    const below = await failure(acceptOrWriteOff(db, writeOff(ids[2] as string), undefined));
    expect(below.rule).toBe(NOTHING_TO_WRITE_OFF);
    expect(await counts(db)).toEqual(before);
  });
});
