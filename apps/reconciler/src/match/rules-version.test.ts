// A release that changes what a break holds raises MATCH_RULES: the first run after it matches
// in full, so breaks the earlier rules wrote (a missing_in_ledger's amount without its fees) are
// rewritten even when no record changed, instead of being reused or built on. The upgrade's
// migration (0033_fees_in_missing_amounts) brings a written-off break's accepted figures to the
// new rules' arithmetic, so that run does not lapse it and reverse its journal entries; rules 3's
// (0036_currency_mismatch_amounts: a currency_mismatch's amount is the provider's side) brings a
// currency_mismatch's stored amount, its acceptance and a request waiting for a second approver
// to the provider's side the same way.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { RunningSandbox } from "@merchantkit/sandbox";
import { describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { defaultMigrationsFolder } from "../db/migrations";
import { queryText } from "../db/query-rows";
import { testBackends } from "../testing/databases";
import { EVERY_CLASS_AS_OF, matchEveryClass } from "../testing/every-class";
import { useSandboxAndDatabase } from "../testing/sandbox-database";
import { writeOffBreak } from "../workflow/write-off";
import { runMatch } from "./run-match";

const MIGRATION = "0033_fees_in_missing_amounts.sql";
const CURRENCY_MISMATCH_MIGRATION = "0036_currency_mismatch_amounts.sql";

describe.each(testBackends())("the matching rules' version on %s", (kind) => {
  let db: Db;
  let sandbox: RunningSandbox;
  useSandboxAndDatabase(kind, (opened) => {
    ({ db, sandbox } = opened);
  });

  it("makes the first run after a change of rules a full one that keeps write-offs", async () => {
    await matchEveryClass(db, sandbox);
    const feeBreaks = `SELECT b.break_id, b.amount::text AS amount FROM breaks b
      WHERE b.class = 'missing_in_ledger' AND b.status <> 'resolved'
        AND EXISTS (SELECT 1 FROM break_records r WHERE r.break_id = b.break_id AND r.record_kind = 'fee')
      ORDER BY b.break_id`;
    const [written] = await queryText<{ break_id: string; amount: string }>(db, feeBreaks);
    expect(written).toBeDefined();
    const writtenId = written?.break_id as string;
    await writeOffBreak(db, { breakId: writtenId, actor: "ana", account: "6000", reason: "x" });

    // What the earlier rules left: amounts without the fees, accepted as such, runs recorded
    // without `rules`.
    const main = `(SELECT r.amount FROM break_records r WHERE r.break_id = breaks.break_id
      AND r.record_kind <> 'fee')`;
    await queryText(
      db,
      `UPDATE breaks SET amount = abs(${main}), provider_amount = ${main}
       WHERE break_id = '${writtenId}'`,
    );
    await queryText(
      db,
      `UPDATE break_workflow w SET accepted_amount = b.amount, accepted_provider_amount = b.provider_amount
       FROM breaks b WHERE b.break_id = w.break_id AND w.break_id = '${writtenId}'`,
    );
    await queryText(db, `UPDATE match_runs SET params = params - 'rules'`);
    await queryText(db, readFileSync(join(defaultMigrationsFolder(), MIGRATION), "utf8"));

    const run = await runMatch(db, { asOf: new Date(EVERY_CLASS_AS_OF) });
    expect([run.reusedRunId, run.incremental]).toEqual([null, false]);
    expect(await queryText(db, feeBreaks)).toEqual([written]);
    const [state] = await queryText<{ status: string; reversals: string }>(
      db,
      `SELECT w.status, (SELECT count(*)::text FROM journal_entries j
         WHERE j.break_id = w.break_id AND j.reverses_id IS NOT NULL) AS reversals
       FROM finance_break_workflow w WHERE w.break_id = '${writtenId}'`,
    );
    expect(state).toEqual({ status: "accepted", reversals: "0" });
    // And the next run, under the same rules, reuses again.
    const again = await runMatch(db, { asOf: new Date(EVERY_CLASS_AS_OF) });
    expect(again.reusedRunId).not.toBeNull();
  }, 180_000);

  it("keeps a written-off currency_mismatch accepted through rules 3: its amount becomes the provider's side", async () => {
    await matchEveryClass(db, sandbox);
    // A currency_mismatch whose ledger side is rebooked at another amount too.
    const [picked] = await queryText<{ break_id: string; entry_id: string }>(
      db,
      `SELECT break_id, entry_id FROM breaks WHERE class = 'currency_mismatch'
         AND provider_amount IS NOT NULL AND status = 'open' ORDER BY break_id LIMIT 1`,
    );
    const id = picked?.break_id as string;
    await queryText(
      db,
      `UPDATE ledger_entries SET amount = round(amount * 0.9, 2) WHERE entry_id = '${picked?.entry_id}'`,
    );
    await runMatch(db, { asOf: new Date(EVERY_CLASS_AS_OF) });
    const figures = `SELECT amount::text AS amount, abs(provider_amount)::text AS provider,
      abs(ledger_amount)::text AS ledger FROM breaks WHERE break_id = '${id}'`;
    const [now] = await queryText<{ amount: string; provider: string; ledger: string }>(
      db,
      figures,
    );
    expect(now?.amount).toBe(now?.provider);
    expect(now?.ledger).not.toBe(now?.provider);
    await writeOffBreak(db, { breakId: id, actor: "ana", account: "6000", reason: "FX" });

    // What the earlier rules left: the ledger's amount, accepted as such; runs without `rules`.
    await queryText(db, `UPDATE breaks SET amount = abs(ledger_amount) WHERE break_id = '${id}'`);
    await queryText(
      db,
      `UPDATE break_workflow SET accepted_amount = abs(accepted_ledger_amount) WHERE break_id = '${id}'`,
    );
    await queryText(db, `UPDATE match_runs SET params = params - 'rules'`);
    const migration = readFileSync(
      join(defaultMigrationsFolder(), CURRENCY_MISMATCH_MIGRATION),
      "utf8",
    );
    for (const statement of migration.split("--> statement-breakpoint"))
      await queryText(db, statement);
    expect(await queryText(db, figures)).toEqual([now]);

    const run = await runMatch(db, { asOf: new Date(EVERY_CLASS_AS_OF) });
    expect([run.reusedRunId, run.incremental]).toEqual([null, false]);
    expect(await queryText(db, figures)).toEqual([now]);
    const [state] = await queryText<{ status: string; accepted: string; reversals: string }>(
      db,
      `SELECT f.status, w.accepted_amount::text AS accepted, (SELECT count(*)::text FROM journal_entries j
         WHERE j.break_id = w.break_id AND j.reverses_id IS NOT NULL) AS reversals
       FROM finance_break_workflow f JOIN break_workflow w ON w.break_id = f.break_id
       WHERE w.break_id = '${id}'`,
    );
    expect(state).toEqual({ status: "accepted", accepted: now?.provider, reversals: "0" });
  }, 180_000);
});
