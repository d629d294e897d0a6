// The bridge per currency ties, on generated data with every injectable break class injected
// (PGlite and, with DATABASE_URL, Postgres): difference = timing + open breaks + pending +
// accepted + unexplained to the cent; the bridge is the sum of the daily statement's rows; each
// open break's signed effects add up to the bridge's open figure in each currency (a
// currency_mismatch under both its currencies); and the report's per-class, per-currency
// figures add up to it too. The console's kept figures (computed again only for the days a write
// changed) equal a fresh report's after an accept of each class, reopens, a write-off and an
// import.
import { compareDecimal, sumDecimals } from "@merchantkit/core";
import type { RunningSandbox } from "@merchantkit/sandbox";
import { describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { importLedger } from "../ledger/import-ledger";
import { INJECTABLE_CLASSES } from "../testing";
import { testBackends } from "../testing/databases";
import { matchEveryClass } from "../testing/every-class";
import { withoutClock } from "../testing/report-clock";
import { useSandboxAndDatabase } from "../testing/sandbox-database";
import { applyBreakAction } from "../workflow/break-actions";
import { WorkflowError } from "../workflow/workflow-error";
import { writeOffBreak } from "../workflow/write-off";
import { renderText } from "./render-text";
import { loadReport, reportFiguresCache } from "./report-data";

const same = (a: string, b: string) => compareDecimal(a, b) === 0;

describe.each(testBackends())("the currency bridge on %s", (kind) => {
  let db: Db;
  let sandbox: RunningSandbox;
  useSandboxAndDatabase(kind, (opened) => {
    ({ db, sandbox } = opened);
  });

  it("ties per currency with every class injected, and the report's class figures add up to it", async () => {
    await matchEveryClass(db, sandbox);
    const classes = await queryText<{ class: string }>(
      db,
      `SELECT DISTINCT class FROM breaks WHERE status <> 'resolved'`,
    );
    for (const c of INJECTABLE_CLASSES) expect(classes.map((r) => r.class)).toContain(c);
    // One accepted break, so the accepted column is not empty.
    const [first] = await queryText<{ break_id: string }>(
      db,
      `SELECT break_id FROM breaks WHERE status = 'open' AND class = 'amount_mismatch' ORDER BY break_id LIMIT 1`,
    );
    await applyBreakAction(db, {
      breakId: first?.break_id as string,
      action: "accept",
      actor: "alice",
      text: "agreed with the card team",
    });

    // The currency_mismatch's ledger side is in another currency: it has two effects.
    const twoSided = await queryText<{ n: string }>(
      db,
      `SELECT count(DISTINCT currency) AS n FROM finance_break_effects e
       WHERE class = 'currency_mismatch' GROUP BY break_id`,
    );
    expect(twoSided.length).toBeGreaterThan(0);
    for (const b of twoSided) expect(Number(b.n)).toBe(2);

    const bridge = await queryText<Record<string, string>>(
      db,
      `SELECT currency, provider_total::text, ledger_total::text, difference::text, timing::text,
         open_breaks::text, pending::text, accepted::text, unexplained::text
       FROM finance_currency_bridge ORDER BY currency`,
    );
    const statement = await queryText<Record<string, string>>(
      db,
      `SELECT currency, sum(provider_total)::text AS provider_total, sum(ledger_total)::text AS ledger_total,
         sum(difference)::text AS difference, sum(timing)::text AS timing,
         sum(explained_by_breaks - accepted)::text AS open_breaks, sum(pending)::text AS pending,
         sum(accepted)::text AS accepted, sum(unexplained)::text AS unexplained
       FROM finance_daily_statement GROUP BY currency ORDER BY currency`,
    );
    const effects = await queryText<{ currency: string; status: string; effect: string }>(
      db,
      `SELECT currency, status, sum(effect)::text AS effect FROM finance_break_effects
       GROUP BY currency, status`,
    );
    const effectOf = (currency: string, status: string) =>
      effects.find((e) => e.currency === currency && e.status === status)?.effect ?? "0";
    const report = await loadReport(db);
    expect(bridge.length).toBeGreaterThan(1);
    expect(report.currencies.map((c) => c.currency)).toEqual(bridge.map((b) => b.currency));
    for (const [i, b] of bridge.entries()) {
      const c = b.currency as string;
      const s = statement[i] as Record<string, string>;
      for (const column of Object.keys(b).filter((k) => k !== "currency"))
        expect(same(b[column] as string, s[column] as string), `${c} ${column}`).toBe(true);
      const parts = [b.timing, b.open_breaks, b.pending, b.accepted, b.unexplained] as string[];
      expect(sumDecimals(parts), c).toBe(sumDecimals([b.difference as string]));
      expect(same(effectOf(c, "open"), b.open_breaks as string), `${c} open effects`).toBe(true);
      expect(same(effectOf(c, "accepted"), b.accepted as string), `${c} accepted`).toBe(true);
      expect(same(effectOf(c, "pending"), b.pending as string), `${c} pending`).toBe(true);
      const shown = report.byClass.filter((t) => t.currency === c).map((t) => t.amount);
      expect(same(sumDecimals(shown), b.open_breaks as string), `${c} report classes`).toBe(true);
      const row = report.currencies[i];
      expect(same(row?.openBreaks as string, b.open_breaks as string), c).toBe(true);
      expect(same(row?.difference as string, b.difference as string), c).toBe(true);
    }
    const text = renderText(report).join("\n");
    expect(text).toContain("difference = timing + open breaks + pending + accepted + unexplained");
  }, 180_000);

  it("keeps figures that equal a fresh report's after accepts, reopens, a write-off and an import", async () => {
    const cache = reportFiguresCache();
    const same = async (what: string) =>
      expect(withoutClock(await loadReport(db, { cache })), what).toEqual(
        withoutClock(await loadReport(db)),
      );
    await same("first");
    const open = await queryText<{ break_id: string; class: string }>(
      db,
      `SELECT DISTINCT ON (class) break_id, class FROM breaks WHERE status = 'open'
       ORDER BY class, break_id`,
    );
    const accepted: string[] = [];
    for (const b of open) {
      try {
        await applyBreakAction(db, {
          breakId: b.break_id,
          action: "accept",
          actor: "alice",
          text: `accepted ${b.class}`,
        });
        accepted.push(b.break_id);
      } catch (error) {
        // A class an accept does not apply to (a proposal is confirmed or rejected).
        if (!(error instanceof WorkflowError)) throw error;
      }
      await same(`accept ${b.class}`);
    }
    expect(accepted.length).toBeGreaterThan(3);
    for (const breakId of accepted.slice(0, 2)) {
      await applyBreakAction(db, { breakId, action: "reopen", actor: "alice" });
      await same(`reopen ${breakId}`);
    }
    await writeOffBreak(db, {
      breakId: accepted[0] as string,
      actor: "alice",
      account: "6800 Bank charges",
      reason: "written off",
    });
    await same("write-off");
    const [day] = await queryText<{ booked_at: string }>(
      db,
      "SELECT to_char(min(booked_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') AS booked_at FROM ledger_entries",
    );
    await importLedger(
      db,
      `entry_id,kind,provider_ref,amount,currency,booked_at\nL-EXTRA,card_transaction,T-EXTRA,-3.10,USD,${day?.booked_at}\n`,
      { sourceFile: "extra.csv" },
    );
    await same("import");
  }, 180_000);
});
