// A currency filter chooses by the money in that currency, on generated data with every
// injectable break class injected: the journal export of a currency holds that currency's
// journal rows (a currency_mismatch's write-off books a line in each of its currencies); the
// queue filtered by a currency holds every break with a record in it, so its totals' effect in
// that currency ties to the bridge's open breaks, and it says how many of the breaks listed are
// in another currency of their own (currencyFilterNote).
import { compareDecimal } from "@merchantkit/core";
import type { RunningSandbox } from "@merchantkit/sandbox";
import { describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { loadExport } from "../export/export-table";
import { loadReport } from "../report/report-data";
import { testBackends } from "../testing/databases";
import { matchEveryClass } from "../testing/every-class";
import { useSandboxAndDatabase } from "../testing/sandbox-database";
import { listBreakPage } from "./break-queries";
import { currencyFilterNote, otherCurrencyBreaks, queueTotals } from "./queue-totals";
import { writeOffBreak } from "./write-off";

describe.each(testBackends())("currency filters on %s", (kind) => {
  let db: Db;
  let sandbox: RunningSandbox;
  useSandboxAndDatabase(kind, (opened) => {
    ({ db, sandbox } = opened);
  });

  it("export journal --currency takes the journal rows in that currency", async () => {
    await matchEveryClass(db, sandbox);
    const [mismatch] = await queryText<{ break_id: string; provider: string; ledger: string }>(
      db,
      `SELECT b.break_id, b.currency AS provider, min(r.currency) AS ledger
       FROM breaks b JOIN break_records r ON r.break_id = b.break_id AND r.side = 'ledger'
       WHERE b.status = 'open' AND b.class = 'currency_mismatch'
       GROUP BY b.break_id, b.currency ORDER BY b.break_id LIMIT 1`,
    );
    expect(mismatch?.ledger).not.toBe(mismatch?.provider);
    const { break_id: breakId, provider, ledger } = mismatch as NonNullable<typeof mismatch>;
    await writeOffBreak(db, { breakId, actor: "alice", account: "FX suspense", reason: "booked" });
    const booked = await queryText<{ currency: string; n: string }>(
      db,
      `SELECT currency, count(*) AS n FROM journal_entries GROUP BY currency ORDER BY currency`,
    );
    expect(booked.map((b) => b.currency)).toContain(ledger);
    for (const { currency, n } of booked) {
      const table = await loadExport(db, "journal", { currency: [currency] });
      const at = table.columns.findIndex((c) => c.name === "currency");
      expect(
        table.rows.map((r) => r[at]),
        currency,
      ).toEqual(Array(Number(n)).fill(currency));
    }
    // Other filters still choose the breaks, the currency then the rows of theirs.
    const ofBreak = await loadExport(db, "journal", {
      class: "currency_mismatch",
      currency: [ledger],
    });
    expect(ofBreak.rows.length).toBeGreaterThan(0);
    const none = await loadExport(db, "journal", {
      class: "missing_in_ledger",
      currency: [ledger],
    });
    expect(none.rows).toEqual([]);
    expect(provider).not.toBe(ledger);
  }, 180_000);

  it("lists every break with a record in the currency, its effect tying to the bridge, and says which are in another", async () => {
    const report = await loadReport(db);
    const mismatches = await queryText<{ break_id: string; provider: string; ledger: string }>(
      db,
      `SELECT DISTINCT b.break_id, b.currency AS provider, r.currency AS ledger
       FROM finance_break_workflow b
       JOIN break_records r ON r.break_id = b.break_id AND r.side = 'ledger'
       WHERE b.status = 'open' AND b.class = 'currency_mismatch' AND r.currency <> b.currency`,
    );
    expect(mismatches.length).toBeGreaterThan(0);
    for (const bridge of report.currencies) {
      const filter = { currency: [bridge.currency], status: ["open" as const] };
      const totals = await queueTotals(db, filter);
      const line = totals.find((t) => t.currency === bridge.currency);
      expect(
        compareDecimal(line?.effect ?? "0", bridge.openBreaks),
        `${bridge.currency}: ${line?.effect} vs the bridge's ${bridge.openBreaks}`,
      ).toBe(0);
      // Only the filter's currencies: another's line would hold part of that currency's money.
      expect(totals.map((t) => t.currency)).toEqual(line ? [bridge.currency] : []);
      const ids = (await listBreakPage(db, { ...filter, limit: null })).rows.map((r) => r.breakId);
      const others = mismatches.filter((m) => m.ledger === bridge.currency);
      for (const m of others) expect(ids).toContain(m.break_id);
      expect(await otherCurrencyBreaks(db, filter)).toBe(others.length);
    }
    const [m] = mismatches as [(typeof mismatches)[number]];
    expect(currencyFilterNote(1, [m.ledger])).toBe(
      `1 break listed is in another currency of its own (a currency_mismatch whose ledger side is in ${m.ledger}): in the effect above, not in its breaks or at stake`,
    );
  }, 60_000);
});
