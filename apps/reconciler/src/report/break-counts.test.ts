// The report counts breaks as the queue does, on generated data with every injectable break
// class injected: its overdue section per currency is `breaks list --overdue`'s totals (holds
// such as stale authorizations included, each break in its own currency), and its headline
// "accepted N" counts each accepted break once, a currency_mismatch touching two currencies too.
import type { RunningSandbox } from "@merchantkit/sandbox";
import { describe, expect, it } from "vitest";
import type { DueSettings } from "../config/due-settings";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { testBackends } from "../testing/databases";
import { matchEveryClass } from "../testing/every-class";
import { useSandboxAndDatabase } from "../testing/sandbox-database";
import { applyBreakAction } from "../workflow/break-actions";
import { storeDueSettings } from "../workflow/due-dates";
import { queueTotals } from "../workflow/queue-totals";
import { renderHtml } from "./render-html";
import { renderText } from "./render-text";
import { loadReport } from "./report-data";

const DUE: DueSettings = { days: [1, 1, 1, 1], classDays: {}, largeAmount: "10000" };

describe.each(testBackends())("the report's break counts on %s", (kind) => {
  let db: Db;
  let sandbox: RunningSandbox;
  useSandboxAndDatabase(kind, (opened) => {
    ({ db, sandbox } = opened);
  });

  it("counts per currency the overdue breaks `breaks list --overdue` counts, holds included", async () => {
    await matchEveryClass(db, sandbox);
    // A day for every class, so holds and currency_mismatch breaks are overdue too; stored, so
    // finance_open_breaks reads the same settings.
    await storeDueSettings(db, DUE);
    const holds = await queryText<{ n: string }>(
      db,
      `SELECT count(*) AS n FROM finance_open_breaks WHERE overdue AND class = 'stale_authorization'`,
    );
    expect(Number(holds[0]?.n)).toBeGreaterThan(0);
    const [mismatch] = await queryText<{ n: string }>(
      db,
      `SELECT count(*) AS n FROM finance_open_breaks WHERE overdue AND class = 'currency_mismatch'`,
    );
    expect(Number(mismatch?.n)).toBeGreaterThan(0);
    const listed = await queueTotals(db, { overdue: true, due: DUE });
    const report = await loadReport(db, { due: DUE });
    expect(report.overdue).toEqual(listed);
    // Each break in its own currency, as finance_open_breaks (finance query 17) has it.
    const q17 = await queryText<{ currency: string; n: string; amount: string }>(
      db,
      `SELECT currency, count(*) AS n, sum(amount)::text AS amount FROM finance_open_breaks
       WHERE overdue GROUP BY currency ORDER BY currency`,
    );
    expect(report.overdue.map((o) => [o.currency, o.count, o.atStake])).toEqual(
      q17.map((r) => [r.currency, Number(r.n), r.amount]),
    );
    const text = renderText(report).join("\n");
    expect(text).toMatch(/Overdue open breaks per currency[^\n]*stale authorizations included/);
  }, 180_000);

  it("counts an accepted currency_mismatch once in the headline", async () => {
    const [mismatch] = await queryText<{ break_id: string }>(
      db,
      `SELECT break_id FROM breaks WHERE status = 'open' AND class = 'currency_mismatch'
       ORDER BY break_id LIMIT 1`,
    );
    expect(mismatch).toBeDefined();
    await applyBreakAction(db, {
      breakId: mismatch?.break_id as string,
      action: "accept",
      actor: "alice",
      text: "booked in the wrong currency; corrected next month",
    });
    const [accepted] = await queryText<{ n: string }>(
      db,
      `SELECT count(*) AS n FROM finance_break_workflow WHERE status = 'accepted'`,
    );
    expect(Number(accepted?.n)).toBe(1);
    const report = await loadReport(db, { due: DUE });
    // The class table has a line per currency the break touches; the headline one break.
    expect(report.acceptedByClass.length).toBe(2);
    expect(renderHtml(report)).toMatch(/open breaks \d+, pending \d+, accepted 1\./);
  }, 60_000);
});
