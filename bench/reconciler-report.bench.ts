/**
 * The console's report page (issue 36: ≤ 1 s on the demo's 100,000 card transactions, on
 * PGlite). The baseline is the page as it was: every load recomputes the statement and the fees
 * over every record. Beside it, the page with its kept figures (report/figures-cache.ts): a load
 * with nothing changed, a load right after a comment on a break (a workflow write the figures do
 * not read), and a load right after an accept or its reopen (which moves money in the
 * statement on one day: that day's figures are computed again, finance_changes). After the
 * table, the load alone after an accept or a reopen (the action not counted), against the
 * baseline's load.
 *
 * Runs the demo (sandbox, ledger, sync, match: about a minute) into a temporary PGlite folder,
 * or reads RECONCILER_REPORT_DATA_DIR when set (a folder a demo left).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { openDatabase } from "../apps/reconciler/src/db/connect";
import { queryText } from "../apps/reconciler/src/db/query-rows";
import { loadReport, reportFiguresCache } from "../apps/reconciler/src/report/report-data";
import { applyBreakAction } from "../apps/reconciler/src/workflow/break-actions";
import { compare, median } from "./harness";

export async function run(): Promise<void> {
  const given = process.env.RECONCILER_REPORT_DATA_DIR;
  const dataDir = given ?? mkdtempSync(join(tmpdir(), "report-bench-"));
  if (!given) {
    console.log(`running the demo into ${dataDir} …`);
    const demo = spawnSync("bash", ["scripts/demo.sh", "--data-dir", dataDir], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    if (demo.status !== 0) throw new Error(`the demo failed (exit ${demo.status})`);
  }
  const database = await openDatabase({ dataDir });
  try {
    const db = database.db;
    const [txns] = await queryText<{ n: string }>(
      db,
      "SELECT count(*) AS n FROM card_transactions",
    );
    const [open] = await queryText<{ break_id: string }>(
      db,
      "SELECT break_id FROM finance_open_breaks LIMIT 1",
    );
    const cache = reportFiguresCache();
    const page = () => loadReport(db, { queueLimit: 200, cache });
    const act = (action: "comment" | "accept" | "reopen", text?: string) =>
      applyBreakAction(db, {
        breakId: open?.break_id as string,
        action,
        actor: "bench",
        text,
      });
    let comments = 0;
    let accepted = false;
    const loadsAfterAction: number[] = [];
    await act("comment", "the bench looks at it");
    const results = await compare({
      title: `console report page, ${Number(txns?.n).toLocaleString("en-US")} card transactions (PGlite)`,
      unit: "load",
      rounds: 3,
      roundMs: 1,
      baseline: {
        name: "recomputed on every load (no kept figures)",
        fn: () => loadReport(db, { queueLimit: 200 }),
      },
      candidates: [
        { name: "kept figures, nothing changed", fn: page },
        {
          name: "kept figures, first load after a comment",
          fn: async () => {
            await act("comment", `comment ${++comments}`);
            await page();
          },
        },
        {
          name: "kept figures, first load after an accept or a reopen",
          fn: async () => {
            accepted = !accepted;
            await (accepted ? act("accept", "bench") : act("reopen"));
            const started = performance.now();
            await page();
            loadsAfterAction.push(performance.now() - started);
          },
        },
      ],
    });
    const full = results[0]?.nsPerOp ?? Number.NaN;
    const middle = median(loadsAfterAction);
    console.log(
      `load alone after an accept or a reopen: median ${(middle / 1000).toFixed(3)} s of ${loadsAfterAction.length} ` +
        `(${((middle * 1e6) / full).toFixed(2)}× the recomputed load)`,
    );
  } finally {
    await database.close();
    if (!given) rmSync(dataDir, { recursive: true, force: true });
  }
}
