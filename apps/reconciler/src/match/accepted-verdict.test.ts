// An accepted break is no longer work: a run whose only breaks are accepted is reconciled, with
// 0 open breaks in its stats, in finance_latest_run and in the report alike. Before, the run
// counted every open break (accepted too): "verdict":"breaks","openBreaks":17 next to the
// report's "Open breaks 0, pending 0". A reused run (nothing changed since the accept) reads the
// work again; a lapsed acceptance or a reopen makes the break work again. PGlite and (with
// DATABASE_URL) a Postgres server.
import { describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { renderText } from "../report/render-text";
import { loadReport } from "../report/report-data";
import { testBackends } from "../testing/databases";
import { storeOneUnbookedClearing } from "../testing/ground-truth";
import { useTestDatabase } from "../testing/use-database";
import { applyBreakAction } from "../workflow/break-actions";
import { type MatchRunResult, runMatch } from "./run-match";

const AS_OF = Date.parse("2026-06-01T00:00:00Z");
const CARD = "1953712585351400001";

describe.each(testBackends())("the verdict of accepted breaks on %s", (kind) => {
  let db: Db;
  useTestDatabase(kind, (opened) => {
    db = opened.db;
  });

  /** The run's verdict and counts, as runMatch, finance_latest_run and the report tell them. */
  async function told(run: MatchRunResult) {
    const [latest] = await queryText<Record<string, string>>(
      db,
      `SELECT verdict, stats ->> 'openBreaks' AS open_breaks, stats ->> 'pendingItems' AS pending
       FROM finance_latest_run`,
    );
    const report = await loadReport(db);
    const text = renderText(report);
    return {
      run: [run.verdict, run.stats.openBreaks, run.stats.pendingItems],
      latest: [latest?.verdict, Number(latest?.open_breaks), Number(latest?.pending)],
      report: [report.run?.verdict, report.openBreaks, report.pendingItems],
      text: text.filter((l) => /^(Verdict|Open breaks \d| {2}\(the run)/.test(l)),
    };
  }

  it("is reconciled once every break is accepted, and breaks again when one lapses or reopens", async () => {
    // K1 and K2 booked; K3 is missing in the ledger: one open break.
    await storeOneUnbookedClearing(db, AS_OF, CARD);
    const asOf = new Date(AS_OF);
    const first = await runMatch(db, { asOf });
    expect((await told(first)).run).toEqual(["breaks", 1, 0]);
    const [open] = await queryText<{ break_id: string }>(
      db,
      "SELECT break_id FROM breaks WHERE status = 'open'",
    );
    const id = open?.break_id as string;

    await applyBreakAction(db, { breakId: id, action: "accept", actor: "alice", text: "ok" });
    // Until the next run the verdict is the last run's: the report says why its counts differ.
    expect((await told(first)).text).toEqual([
      "Verdict: BREAKS: differences to work on",
      "Open breaks 0, pending 0",
      "  (the run counted 1 open, 0 pending: breaks were accepted or reopened since; the next match run's verdict counts them)",
    ]);
    const clean = {
      run: ["reconciled", 0, 0],
      latest: ["reconciled", 0, 0],
      report: ["reconciled", 0, 0],
      text: ["Verdict: RECONCILED: provider and ledger agree", "Open breaks 0, pending 0"],
    };
    // Nothing the matcher reads changed: the run reuses the last one's results, not its verdict.
    const reused = await runMatch(db, { asOf });
    expect(reused.reusedRunId).toBe(first.runId);
    expect(await told(reused)).toEqual(clean);
    expect(reused.stats.breaksByClass).toEqual({});
    // A full run says the same.
    expect(await told(await runMatch(db, { asOf, full: true }))).toEqual(clean);

    // The acceptance no longer fits the difference: the run lapses it, and counts the break.
    await queryText(db, `UPDATE break_workflow SET accepted_amount = 99 WHERE break_id = '${id}'`);
    const lapsed = await told(await runMatch(db, { asOf }));
    expect(lapsed).toEqual({
      run: ["breaks", 1, 0],
      latest: ["breaks", 1, 0],
      report: ["breaks", 1, 0],
      text: ["Verdict: BREAKS: differences to work on", "Open breaks 1, pending 0"],
    });

    // Accepted again, then reopened: the reused runs follow.
    await applyBreakAction(db, { breakId: id, action: "accept", actor: "alice", text: "ok" });
    expect(await told(await runMatch(db, { asOf }))).toEqual(clean);
    await applyBreakAction(db, { breakId: id, action: "reopen", actor: "bob" });
    const reopened = await runMatch(db, { asOf });
    expect(reopened.reusedRunId).not.toBeNull();
    expect((await told(reopened)).latest).toEqual(["breaks", 1, 0]);
  });
});
