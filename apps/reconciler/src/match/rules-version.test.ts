// A release that changes what a break holds raises MATCH_RULES: the first run after it matches
// in full, so breaks the earlier rules wrote (a missing_in_ledger's amount without its fees)
// are rewritten even when no record changed, instead of being reused or built on.

import type { RunningSandbox } from "@merchantkit/sandbox";
import { describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { testBackends } from "../testing/databases";
import { EVERY_CLASS_AS_OF, matchEveryClass } from "../testing/every-class";
import { useSandboxAndDatabase } from "../testing/sandbox-database";
import { runMatch } from "./run-match";

describe.each(testBackends())("the matching rules' version on %s", (kind) => {
  let db: Db;
  let sandbox: RunningSandbox;
  useSandboxAndDatabase(kind, (opened) => {
    ({ db, sandbox } = opened);
  });

  it("makes the first run after a change of rules a full one", async () => {
    await matchEveryClass(db, sandbox);
    const pick = `SELECT b.break_id, b.amount::text AS amount FROM breaks b
      WHERE b.class = 'missing_in_ledger' AND b.status <> 'resolved'
        AND EXISTS (SELECT 1 FROM break_records r WHERE r.break_id = b.break_id AND r.record_kind = 'fee')
      ORDER BY b.break_id LIMIT 1`;
    const [now] = await queryText<{ break_id: string; amount: string }>(db, pick);
    expect(now).toBeDefined();
    // What the earlier rules left: the amount without the fees, runs recorded without `rules`.
    await queryText(
      db,
      `UPDATE breaks SET amount = amount - 0.01 WHERE break_id = '${now?.break_id}'`,
    );
    await queryText(db, `UPDATE match_runs SET params = params - 'rules'`);
    const run = await runMatch(db, { asOf: new Date(EVERY_CLASS_AS_OF) });
    expect([run.reusedRunId, run.incremental]).toEqual([null, false]);
    const [after] = await queryText<{ break_id: string; amount: string }>(db, pick);
    expect(after).toEqual(now);
    // And the next run, under the same rules, reuses again.
    const again = await runMatch(db, { asOf: new Date(EVERY_CLASS_AS_OF) });
    expect(again.reusedRunId).not.toBeNull();
  }, 180_000);
});
