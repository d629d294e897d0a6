// A month closed as finance closes it (docs/reconciler.md "Closing the month"), on generated data
// with every injectable break class injected (PGlite and, with DATABASE_URL, Postgres): accept,
// write off, confirm and reject proposals, run, match by hand, run, unmatch, run, reopen a
// written-off break, run, export. After every step each money view is compared per currency, to
// the cent, with the others: the bridge view, the entities' bridges summed, the daily statement
// summed, the breaks' signed effects by status, the report, the queue totals (breaks list's, and
// the console's over HTTP as a signed-in approver), the breaks, journal and audit downloads, and
// the journal entries against the written-off breaks' effects.

import { sumDecimals } from "@merchantkit/core";
import type { RunningSandbox } from "@merchantkit/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningConsole, startConsole } from "../console/console-server";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { readCsv } from "../ledger/csv";
import { runMatch } from "../match/run-match";
import { moneyText } from "../money-text";
import { loadReport } from "../report/report-data";
import {
  BRIDGE_COLUMNS,
  type BridgeColumn,
  sameAmount,
  sumByCurrency,
} from "../testing/bridge-ties";
import { postSignIn } from "../testing/console";
import { testBackends } from "../testing/databases";
import { EVERY_CLASS_AS_OF, matchEveryClass } from "../testing/every-class";
import { useSandboxAndDatabase } from "../testing/sandbox-database";
import { applyBreakAction } from "./break-actions";
import { addUser } from "./console-users";
import { decideProposal } from "./decide-proposal";
import { matchManually, unmatchManually } from "./manual-match";
import { queueTotals } from "./queue-totals";
import { writeOffBreak } from "./write-off";

type Bridge = Record<BridgeColumn, string>;

describe.each(testBackends())("closing a month on %s", (kind) => {
  let db: Db;
  let sandbox: RunningSandbox;
  let running: RunningConsole;
  let cookie: string;
  useSandboxAndDatabase(kind, (opened) => {
    ({ db, sandbox } = opened);
  });
  beforeAll(async () => {
    await matchEveryClass(db, sandbox);
    const { password } = await addUser(db, { name: "ana", role: "approver" });
    running = await startConsole({ db, port: 0 });
    const res = await postSignIn(running.url, "ana", password);
    cookie = (res.headers.get("set-cookie") ?? "").split(";")[0] as string;
  }, 180_000);
  afterAll(async () => {
    await running?.close();
  });

  const get = async (path: string) => {
    const res = await fetch(`${running.url}${path}`, { headers: { cookie } });
    expect(res.status, path).toBe(200);
    return res.text();
  };
  const download = async (path: string) =>
    readCsv(await get(path)).map((r) => r.fields) as string[][];
  const rows = <T extends Record<string, unknown>>(text: string) => queryText<T>(db, text);
  const run = () => runMatch(db, { asOf: new Date(EVERY_CLASS_AS_OF) });
  /** Breaks written off and not reopened since: their journal entries net to their effects. */
  const writtenOff = new Set<string>();

  async function ties(step: string): Promise<void> {
    const at = (what: string) => `${step}: ${what}`;
    const cols = BRIDGE_COLUMNS.map((c) => `${c}::text AS ${c}`).join(", ");
    const sums = BRIDGE_COLUMNS.map((c) => `sum(${c})::text AS ${c}`).join(", ");
    const bridge = await rows<Bridge & { currency: string }>(
      `SELECT currency, ${cols} FROM finance_currency_bridge ORDER BY currency`,
    );
    const entities = await rows<Bridge & { currency: string }>(
      `SELECT currency, ${sums} FROM finance_entity_currency_bridge GROUP BY currency ORDER BY currency`,
    );
    const statement = await rows<Bridge & { currency: string }>(
      `SELECT currency, sum(provider_total)::text AS provider_total,
         sum(ledger_total)::text AS ledger_total, sum(difference)::text AS difference,
         sum(timing)::text AS timing, sum(explained_by_breaks - accepted)::text AS open_breaks,
         sum(pending)::text AS pending, sum(accepted)::text AS accepted,
         sum(unexplained)::text AS unexplained
       FROM finance_daily_statement GROUP BY currency ORDER BY currency`,
    );
    const effects = await rows<{ currency: string; status: string; effect: string }>(
      `SELECT currency, status, sum(effect)::text AS effect FROM finance_break_effects
       GROUP BY currency, status`,
    );
    const effectOf = (currency: string, status: string) =>
      effects.find((e) => e.currency === currency && e.status === status)?.effect;
    const report = await loadReport(db);
    const [open, accepted] = await Promise.all([
      queueTotals(db, {}),
      queueTotals(db, { status: ["accepted"] }),
    ]);
    const consoleTotals = async (query: string) => {
      const html = await get(`/breaks${query}`);
      const table = /<table id="totals">([\s\S]*?)<\/table>/.exec(html)?.[1] ?? "";
      return [...table.matchAll(/<tr><td>([A-Z]{3})<\/td>((?:<td[^>]*>[^<]*<\/td>)+)<\/tr>/g)].map(
        (m) => [
          m[1],
          ...[...(m[2] as string).matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((c) => c[1]),
        ],
      );
    };
    const shownTotals = (totals: typeof open) =>
      totals.map((t) => [
        t.currency,
        String(t.count),
        moneyText(t.atStake, t.currency),
        moneyText(t.effect, t.currency),
      ]);
    expect(await consoleTotals(""), at("console queue totals")).toEqual(shownTotals(open));
    expect(await consoleTotals("?status=accepted"), at("console accepted totals")).toEqual(
      shownTotals(accepted),
    );

    // The breaks download of the queue: its effects add up to the bridge's open + pending.
    const [head, ...lines] = await download("/export/breaks.csv");
    const col = (name: string) => (head as string[]).indexOf(name);
    expect(col("effects"), at("breaks export has effects")).toBeGreaterThan(0);
    const exported = lines.flatMap((l) =>
      (l[col("effects")] ?? "")
        .split(";")
        .filter((e) => e !== "")
        .map((e) => e.split("=") as [string, string]),
    );
    const exportedEffects = sumByCurrency(
      exported,
      ([c]) => c,
      ([, a]) => a,
    );
    // A break of one currency has its money at stake as its effect, fees included.
    for (const l of lines) {
      const parts = (l[col("effects")] ?? "").split(";").filter((e) => e !== "");
      if (parts.length !== 1) continue;
      const [currency, effect] = (parts[0] as string).split("=") as [string, string];
      expect(l[col("currency")], at(`${l[0]} currency`)).toBe(currency);
      expect(
        sameAmount(l[col("amount")], effect.replace(/^-/, "")),
        at(`${l[0]} ${l[1]} at stake`),
      ).toBe(true);
    }

    // Journal entries net, per break and currency, to the effect of a break written off.
    const journal = await rows<{ break_id: string; currency: string; net: string }>(
      `SELECT break_id, currency, sum(amount)::text AS net FROM journal_entries
       GROUP BY break_id, currency`,
    );
    const breakEffects = await rows<{ break_id: string; currency: string; effect: string }>(
      `SELECT break_id, currency, effect::text AS effect FROM finance_break_effects`,
    );
    for (const j of journal) {
      const expected = writtenOff.has(j.break_id)
        ? breakEffects.find((e) => e.break_id === j.break_id && e.currency === j.currency)?.effect
        : "0";
      expect(sameAmount(j.net, expected), at(`journal of ${j.break_id} in ${j.currency}`)).toBe(
        true,
      );
    }
    const [jHead, ...jLines] = await download("/export/journal.csv");
    const jc = (name: string) => (jHead as string[]).indexOf(name);
    const journalTotal = sumByCurrency(
      journal,
      (j) => j.currency,
      (j) => j.net,
    );
    const downloadedJournal = sumByCurrency(
      jLines,
      (l) => l[jc("currency")] as string,
      (l) => l[jc("amount")] as string,
    );
    expect([...downloadedJournal.keys()].sort(), at("journal download")).toEqual(
      [...journalTotal.keys()].sort(),
    );
    for (const [c, total] of journalTotal)
      expect(sameAmount(downloadedJournal.get(c), total), at(`journal download ${c}`)).toBe(true);
    const ids = jLines.map((l) => BigInt(l[jc("id")] as string));
    expect(
      ids.every((id, i) => i === 0 || id > (ids[i - 1] as bigint)),
      at("journal in order"),
    ).toBe(true);

    expect(bridge.length, at("currencies")).toBeGreaterThan(1);
    expect(report.currencies.map((c) => c.currency)).toEqual(bridge.map((b) => b.currency));
    for (const [i, b] of bridge.entries()) {
      const c = b.currency;
      for (const column of BRIDGE_COLUMNS) {
        expect(sameAmount(b[column], entities[i]?.[column]), at(`${c} ${column} entities`)).toBe(
          true,
        );
        expect(sameAmount(b[column], statement[i]?.[column]), at(`${c} ${column} statement`)).toBe(
          true,
        );
      }
      const parts = [b.timing, b.open_breaks, b.pending, b.accepted, b.unexplained];
      expect(sameAmount(sumDecimals(parts), b.difference), at(`${c} bridge adds up`)).toBe(true);
      expect(sameAmount(b.unexplained, "0"), at(`${c} unexplained`)).toBe(true);
      expect(sameAmount(effectOf(c, "open"), b.open_breaks), at(`${c} open effects`)).toBe(true);
      expect(sameAmount(effectOf(c, "pending"), b.pending), at(`${c} pending effects`)).toBe(true);
      expect(sameAmount(effectOf(c, "accepted"), b.accepted), at(`${c} accepted effects`)).toBe(
        true,
      );
      const shown = report.currencies[i];
      expect(sameAmount(shown?.providerTotal, b.provider_total), at(`${c} report provider`)).toBe(
        true,
      );
      expect(sameAmount(shown?.ledgerTotal, b.ledger_total), at(`${c} report ledger`)).toBe(true);
      expect(sameAmount(shown?.openBreaks, b.open_breaks), at(`${c} report open`)).toBe(true);
      expect(sameAmount(shown?.accepted, b.accepted), at(`${c} report accepted`)).toBe(true);
      const byClass = report.byClass.filter((t) => t.currency === c).map((t) => t.amount);
      expect(sameAmount(sumDecimals(byClass), b.open_breaks), at(`${c} report classes`)).toBe(true);
      const queued = open.find((t) => t.currency === c)?.effect;
      const openAndPending = sumDecimals([b.open_breaks, b.pending]);
      expect(sameAmount(queued, openAndPending), at(`${c} queue totals`)).toBe(true);
      expect(sameAmount(accepted.find((t) => t.currency === c)?.effect, b.accepted), at(c)).toBe(
        true,
      );
      expect(sameAmount(exportedEffects.get(c), openAndPending), at(`${c} breaks export`)).toBe(
        true,
      );
    }
  }

  const breakOf = async (where: string) => {
    const [row] = await rows<{ break_id: string }>(
      `SELECT break_id FROM breaks WHERE status = 'open' AND ${where} ORDER BY break_id LIMIT 1`,
    );
    expect(row, where).toBeDefined();
    return row?.break_id as string;
  };

  it("ties every money view per currency after each step of the close", async () => {
    await ties("after the first run");

    const accepted = await breakOf(`class = 'amount_mismatch'`);
    await applyBreakAction(db, { breakId: accepted, action: "accept", actor: "ana", text: "ok" });
    const twoCurrencies = await breakOf(`class = 'currency_mismatch'`);
    const phantom = await breakOf(`class = 'missing_at_provider'`);
    // One whose fees are among its records: its journal entry books them too.
    const withFees = await breakOf(`class = 'missing_in_ledger' AND break_id IN
      (SELECT break_id FROM break_records WHERE record_kind = 'fee')`);
    for (const [breakId, account] of [
      [twoCurrencies, "FX suspense"],
      [phantom, "6000 misc"],
      [withFees, "6000 misc"],
    ] as const) {
      await writeOffBreak(db, { breakId, actor: "ana", account, reason: "month end" });
      writtenOff.add(breakId);
    }
    const [confirmed, rejected] = (
      await rows<{ break_id: string; entry_id: string; provider_ref: string }>(
        `SELECT break_id, entry_id, provider_ref FROM breaks
         WHERE class = 'proposed_match' AND status = 'open' ORDER BY break_id`,
      )
    ).map((r) => r);
    expect(rejected).toBeDefined();
    await decideProposal(db, {
      breakId: confirmed?.break_id as string,
      decision: "confirm",
      actor: "ana",
    });
    await decideProposal(db, {
      breakId: rejected?.break_id as string,
      decision: "reject",
      actor: "ana",
      reason: "another purchase",
    });
    const reopened = await breakOf(`class = 'duplicate_in_ledger'`);
    await applyBreakAction(db, { breakId: reopened, action: "accept", actor: "ana", text: "x" });
    await applyBreakAction(db, { breakId: reopened, action: "reopen", actor: "ana" });
    await ties("after the decisions, before the run");

    await run();
    await ties("after the run applying the decisions");
    // The rejected pair is two ordinary breaks now; matched by hand, then undone.
    const entry = rejected?.entry_id as string;
    const record = rejected?.provider_ref as string;
    const manual = await matchManually(db, {
      entries: [entry],
      records: [record],
      actor: "ana",
      reason: "same purchase after all",
    });
    await run();
    await ties("after the manual match's run");
    await unmatchManually(db, { matchId: manual.matchId, actor: "ana", reason: "not the same" });
    await run();
    await ties("after the unmatch's run");

    // A written-off break reopened: its entries are reversed and it is open again.
    await applyBreakAction(db, { breakId: phantom, action: "reopen", actor: "ana" });
    writtenOff.delete(phantom);
    await ties("after reopening a written-off break");
    await run();
    await runMatch(db, { asOf: new Date(EVERY_CLASS_AS_OF), full: true });
    await ties("after a full run");

    // The audit download holds every action, in the order they were taken.
    const [aHead, ...audit] = await download("/export/audit.csv");
    const ids = audit.map((l) => BigInt(l[(aHead as string[]).indexOf("id")] as string));
    const [{ n } = { n: "0" }] = await rows<{ n: string }>(
      `SELECT count(*)::text AS n FROM break_actions`,
    );
    expect(ids.length).toBe(Number(n));
    expect(ids.length).toBeGreaterThan(10);
    expect(ids.every((id, i) => i === 0 || id > (ids[i - 1] as bigint))).toBe(true);
  }, 300_000);
});
