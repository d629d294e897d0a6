// Matching scenarios: sandbox data with a generated ledger (every break class injected), on
// PGlite and (with DATABASE_URL) a Postgres server. Every injected discrepancy must come out
// with its class, nothing else may; re-running is deterministic; a fix resolves its break.
import { readFileSync } from "node:fs";
import type { GroundTruth, RunningSandbox } from "@merchantkit/sandbox";
import { describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { importLedger } from "../ledger/import-ledger";
import { renderHtml } from "../report/render-html";
import { renderText } from "../report/render-text";
import { loadReport } from "../report/report-data";
import { type InjectedDiscrepancy, writeLedger } from "../testing";
import { testBackends } from "../testing/databases";
import { storeGroundTruth } from "../testing/ground-truth";
import { useSandboxAndDatabase } from "../testing/sandbox-database";
import { runMatch } from "./run-match";

const AS_OF = Date.parse("2026-06-01T00:00:00Z");
const TABLES = [
  "card_transactions",
  "card_transaction_versions",
  "operate_records",
  "operate_record_fees",
  "operate_record_versions",
  "account_transactions",
  "account_transaction_versions",
  "service_ids",
  "sync_watermarks",
  "sync_runs",
  "sync_windows",
  "ledger_entries",
  "match_runs",
  "match_pairs",
  "match_groups",
  "match_group_members",
  "breaks",
  "break_records",
];

interface OpenBreak {
  break_id: string;
  class: string;
  provider_ref: string | null;
  entry_id: string | null;
  status: string;
  [key: string]: unknown;
}

const openBreaks = (db: Db) =>
  queryText<OpenBreak>(
    db,
    `SELECT break_id, class, provider_ref, entry_id, status, amount, priority FROM breaks
     WHERE status <> 'resolved' ORDER BY break_id`,
  );

/** Pairs each expected discrepancy with a break of its class naming the same record. */
function compare(expected: readonly InjectedDiscrepancy[], found: readonly OpenBreak[]) {
  const left = [...found];
  const missing: InjectedDiscrepancy[] = [];
  for (const e of expected) {
    const i = left.findIndex(
      (b) =>
        b.class === e.class &&
        ((e.providerRef !== undefined && b.provider_ref === e.providerRef) ||
          (e.entryId !== undefined && b.entry_id === e.entryId)),
    );
    if (i < 0) missing.push(e);
    else left.splice(i, 1);
  }
  return { missing, unexpected: left };
}

describe.each(testBackends())("matching scenarios on %s", (kind) => {
  let db: Db;
  let sandbox: RunningSandbox;
  useSandboxAndDatabase(kind, (opened) => {
    ({ db, sandbox } = opened);
  });

  async function scenario(seed: number, size = { cards: 40, cardTransactions: 500 }) {
    await queryText(db, `TRUNCATE ${TABLES.join(", ")}`);
    await sandbox.admin.reset();
    await sandbox.admin.freezeClock(AS_OF);
    const res = await fetch(`${sandbox.url}/__sandbox/issuing/generate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ seed, ...size, days: 30 }),
    });
    expect(res.status).toBe(200);
    const truth = (await sandbox.admin.state()) as unknown as GroundTruth;
    const ledger = writeLedger(truth, { seed, asOf: AS_OF });
    await storeGroundTruth(db, truth, new Date(AS_OF));
    await importLedger(db, ledger.csv, { sourceFile: `seed-${seed}.csv` });
    return { truth, ledger };
  }

  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: finds every injected discrepancy with its class, and nothing else`, async () => {
      const { ledger } = await scenario(seed);
      const result = await runMatch(db, { asOf: new Date(AS_OF) });
      expect(result.reasons).toEqual([]);
      expect(result.verdict).toBe("breaks");
      const found = await openBreaks(db);
      const { missing, unexpected } = compare(ledger.injected, found);
      expect({ missing, unexpected }).toEqual({ missing: [], unexpected: [] });
      expect(result.stats.pendingItems).toBe(0);
      // Every class the generator can inject was injected and found.
      expect(new Set(found.map((b) => b.class)).size).toBeGreaterThanOrEqual(9);
    });
  }

  it("re-running is deterministic and a fixed entry resolves its break (same id)", async () => {
    const { ledger } = await scenario(7);
    const asOf = new Date(AS_OF);
    await runMatch(db, { asOf });
    const snapshot = async () => ({
      matches: await queryText(
        db,
        `SELECT match_id, pass, status, currency, provider_amount, ledger_amount FROM matches ORDER BY match_id`,
      ),
      members: await queryText(
        db,
        `SELECT * FROM match_members ORDER BY side, record_kind, record_ref`,
      ),
      breaks: await queryText(
        db,
        `SELECT break_id, break_key, class, priority, status, amount, detail FROM breaks ORDER BY break_id`,
      ),
      records: await queryText(
        db,
        `SELECT * FROM break_records ORDER BY side, record_kind, record_ref`,
      ),
    });
    const first = await snapshot();
    const again = await runMatch(db, { asOf });
    expect(again.stats.newBreaks).toBe(0);
    expect(again.stats.resolvedBreaks).toBe(0);
    expect(await snapshot()).toEqual(first);

    // Fix the amount mismatch in the ledger (same entry_id, the provider's amount).
    const mismatch = ledger.injected.find((d) => d.class === "amount_mismatch");
    const before = (await openBreaks(db)).find((b) => b.class === "amount_mismatch");
    expect(before?.provider_ref).toBe(mismatch?.providerRef);
    const entry = ledger.entries.find(
      (e) => e.providerRef === mismatch?.providerRef && e.kind === "card_transaction",
    );
    const [provider] = await queryText<{ amount: string }>(
      db,
      `SELECT amount FROM provider_items WHERE kind = 'card_transaction' AND ref = '${mismatch?.providerRef}'`,
    );
    const fixed = ledger.csv.replace(
      new RegExp(`^${entry?.entryId},card_transaction,${entry?.providerRef},[^,]+,`, "m"),
      `${entry?.entryId},card_transaction,${entry?.providerRef},${provider?.amount},`,
    );
    expect(fixed).not.toBe(ledger.csv);
    const imported = await importLedger(db, fixed);
    expect(imported).toMatchObject({ inserted: 0, updated: 1 });
    const third = await runMatch(db, { asOf });
    expect(third.stats.resolvedBreaks).toBe(1);
    const [row] = await queryText<{ status: string; resolved_at: string | null }>(
      db,
      `SELECT status, resolved_at FROM breaks WHERE break_id = '${before?.break_id}'`,
    );
    expect(row?.status).toBe("resolved");
    expect(row?.resolved_at).not.toBeNull();
    const [match] = await queryText<{ n: string }>(
      db,
      `SELECT count(*) AS n FROM match_members WHERE side = 'provider' AND record_kind = 'card_transaction' AND record_ref = '${mismatch?.providerRef}'`,
    );
    expect(match?.n).toBe("1");
  });

  it("answers every question of docs/finance-queries.md with the SQL written there", async () => {
    const doc = readFileSync(
      new URL("../../../../docs/finance-queries.md", import.meta.url),
      "utf8",
    );
    const blocks = [...doc.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1] as string);
    expect(blocks.length).toBeGreaterThanOrEqual(10);
    const answers: Record<string, unknown>[][] = [];
    for (const block of blocks) answers.push(await queryText(db, block));
    expect(answers[0]?.[0]?.verdict).toBe("breaks");
    expect(answers[2]?.length).toBeGreaterThan(0);
    // Q9: operations with fees, account postings and the ledger agree for every type.
    for (const row of answers[8] ?? []) {
      expect(row.account_postings).toBe(row.operations_with_fees);
      expect(row.ledger).toBe(row.operations_with_fees);
    }
    // The statement explains every difference: nothing unexplained, and the parts add up.
    const [check] = await queryText<{ bad: string; days: string }>(
      db,
      `SELECT count(*) FILTER (WHERE unexplained <> 0
          OR difference <> timing + explained_by_breaks + pending + unexplained) AS bad,
        count(*) AS days FROM finance_daily_statement`,
    );
    expect(check).toEqual({ bad: "0", days: expect.not.stringMatching(/^0$/) });
  });

  it("reports a day as text and as a self-contained HTML page", async () => {
    const [day] = await queryText<{ day: string }>(
      db,
      `SELECT occurred_at::date::text AS day FROM breaks WHERE status = 'open' AND class = 'amount_mismatch'
       UNION ALL SELECT occurred_at::date::text FROM breaks WHERE status = 'open' LIMIT 1`,
    );
    const data = await loadReport(db, { date: day?.day });
    expect(data.run?.verdict).toBe("breaks");
    const text = renderText(data).join("\n");
    expect(text).toContain(`Statement of ${day?.day}`);
    expect(text).toMatch(/Break queue/);
    const html = renderHtml(data);
    expect(html).toContain("<svg");
    expect(html).not.toMatch(/<script|src=|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  });

  it("keeps a record in at most one live match and one break", async () => {
    const [dup] = await queryText<{ n: string }>(
      db,
      `SELECT count(*) AS n FROM (SELECT side, record_kind, record_ref FROM match_members
        GROUP BY 1, 2, 3 HAVING count(*) > 1) x`,
    );
    expect(dup?.n).toBe("0");
  });

  it("calls a run incomplete when the sync lags, and leaves the breaks alone", async () => {
    await queryText(db, `UPDATE sync_watermarks SET watermark = watermark - interval '1 day'`);
    const before = await openBreaks(db);
    // A ledger entry gone during the lag: the incomplete run's figures see it and cost what
    // changed (it builds on the last complete run), and it writes nothing.
    await queryText(
      db,
      `DELETE FROM ledger_entries WHERE entry_id = (SELECT min(entry_id) FROM match_pairs)`,
    );
    const result = await runMatch(db, { asOf: new Date(AS_OF) });
    expect(result.verdict).toBe("incomplete");
    expect(result.reasons.join("\n")).toMatch(/sync lag/);
    expect(result).toMatchObject({ persisted: false, incremental: true });
    expect(await openBreaks(db)).toEqual(before);
    // The sync caught up: the next run takes the change the incomplete one gave back, and
    // writes the figures the incomplete one showed.
    await queryText(db, `UPDATE sync_watermarks SET watermark = watermark + interval '1 day'`);
    const next = await runMatch(db, { asOf: new Date(AS_OF) });
    expect(next).toMatchObject({ persisted: true, incremental: true });
    const figures = (r: typeof result) => ({ ...r.stats, newBreaks: 0, resolvedBreaks: 0 });
    expect(figures(result)).toEqual(figures(next));
    expect(await openBreaks(db)).not.toEqual(before);
  });
});
