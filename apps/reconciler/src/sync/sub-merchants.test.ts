// A platform merchant and its sub-merchants, end to end on the sandbox (PGlite and, with
// DATABASE_URL, Postgres): generated card activity for the merchant and account movements for
// three sub-merchants, discrepancies injected into each entity's ledger entries, one sub-merchant
// the merchant may no longer act for. Every injected break is found under its entity with its
// class and no other break names a sub-merchant; the refused sub-merchant's serviceIds are
// parked and named while the others sync; the report's bridge is per entity and its platform
// total per currency the entities' sum.
import { compareDecimal, sumDecimals } from "@merchantkit/core";
import { type GroundTruth, subMerchantNos } from "@merchantkit/sandbox";
import { describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { importLedger } from "../ledger/import-ledger";
import { runMatch } from "../match/run-match";
import { renderText } from "../report/render-text";
import { loadReport } from "../report/report-data";
import { testBackends } from "../testing/databases";
import { documentedBlocks } from "../testing/documented-queries";
import {
  type GeneratedSandbox,
  SANDBOX_KEYS,
  sandboxSyncContext,
  useSandboxDatabase,
} from "../testing/sandbox";
import { storedResults } from "../testing/stored-results";
import { writeLedger } from "../testing/write-ledger";
import { runSync } from "./run-sync";

const [ALLOWED_A, ALLOWED_B, REFUSED] = subMerchantNos(3) as [string, string, string];
const PARENT = SANDBOX_KEYS.MERCHANT_NO;

type StoredBreak = {
  class: string;
  entity: string;
  provider_ref: string | null;
  entry_id: string | null;
  status: string;
};

describe.each(testBackends())("sub-merchants on %s", (kind) => {
  let db: Db;
  let generated: GeneratedSandbox;
  useSandboxDatabase(
    kind,
    { cardTransactions: 300, cards: 10, days: 10, children: [ALLOWED_A, ALLOWED_B, REFUSED] },
    (database, sandbox) => {
      db = database.db;
      generated = sandbox;
    },
  );

  it("reconciles each entity on its own, and parks a sub-merchant the merchant may not act for", async () => {
    const { sandbox, now } = generated;
    const res = await fetch(`${sandbox.url}/__sandbox/account/generate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ seed: 3, movements: 12, days: 8 }),
    });
    expect(res.status).toBe(200);
    const truth = (await sandbox.admin.state()) as unknown as GroundTruth;
    for (const child of [ALLOWED_A, ALLOWED_B, REFUSED])
      expect(truth.subMerchantLedgers?.[child]?.transactions.length).toBeGreaterThan(5);
    const ledger = writeLedger(truth, {
      seed: 3,
      asOf: now,
      discrepancies: ["missing_in_ledger", "amount_mismatch", "duplicate_in_ledger"],
      subMerchantDiscrepancies: {
        missing_at_provider: 1,
        amount_mismatch: 1,
        duplicate_in_ledger: 1,
      },
    });
    // The platform takes REFUSED out of the merchant's reach after its entries were booked.
    await sandbox.admin.configure({ children: [ALLOWED_A, ALLOWED_B] });
    const entities = [ALLOWED_A, ALLOWED_B, REFUSED];
    await importLedger(db, ledger.csv, {
      sourceFile: "platform.csv",
      entities: { merchantNo: PARENT, subMerchants: entities },
    });

    const ctx = sandboxSyncContext(db, generated, { RECONCILER_ENTITIES: entities.join(",") });
    const summary = await runSync(ctx);
    const account = summary.streams.account_transactions;
    expect(account?.outcome, ctx.lines.join("\n")).toBe("ok");
    expect(account?.entitiesRefused).toEqual([REFUSED]);
    expect(ctx.lines.some((l) => l.includes("sub-merchant refused") && l.includes(REFUSED))).toBe(
      true,
    );

    // Parked and named: every serviceId of REFUSED's entries, with the service's answer.
    const refusedIds = new Set(
      ledger.entries.filter((e) => e.entity === REFUSED).map((e) => e.providerRef),
    );
    const parked = await queryText<{ service_id: string; entity: string; parked_reason: string }>(
      db,
      "SELECT service_id, entity, parked_reason FROM finance_parked_service_ids",
    );
    expect(new Set(parked.map((p) => p.service_id))).toEqual(refusedIds);
    for (const p of parked) {
      expect(p.entity).toBe(REFUSED);
      expect(p.parked_reason).toContain(`sub-merchant ${REFUSED}`);
      expect(p.parked_reason).toContain("40003");
    }

    // The others synced: each allowed sub-merchant's movements its entries name, stored under it.
    for (const child of [ALLOWED_A, ALLOWED_B]) {
      const stored = await queryText<{ acnt_txn_id: string; amount: string }>(
        db,
        `SELECT acnt_txn_id, amount::text AS amount FROM account_transactions WHERE entity = '${child}' ORDER BY acnt_txn_id`,
      );
      const named = new Set(
        ledger.entries.filter((e) => e.entity === child).map((e) => e.providerRef),
      );
      const want = (truth.subMerchantLedgers?.[child]?.transactions ?? [])
        .filter((t) => named.has(t.serviceId))
        .map((t) => t.acntTxnId)
        .sort();
      expect(want.length).toBeGreaterThan(5);
      expect(stored.map((s) => s.acnt_txn_id)).toEqual(want);
    }
    const [strays] = await queryText<{ n: string }>(
      db,
      `SELECT count(*) AS n FROM account_transactions WHERE entity NOT IN ('', '${ALLOWED_A}', '${ALLOWED_B}')`,
    );
    expect(Number(strays?.n)).toBe(0);

    await runMatch(db, { asOf: new Date(now) });
    const breaks = await queryText<StoredBreak>(
      db,
      "SELECT class, entity, provider_ref, entry_id, status FROM breaks WHERE status <> 'resolved'",
    );
    const entityOf = (e: string | undefined) => (e === undefined || e === PARENT ? "" : e);
    // Every injected discrepancy of an entity the merchant may act for: its class, its entity.
    for (const d of ledger.injected.filter(
      (i) => i.origin === "injected" && i.entity !== REFUSED,
    )) {
      const found = breaks.find(
        (b) =>
          b.class === d.class &&
          b.entity === entityOf(d.entity) &&
          (d.entryId ? b.entry_id === d.entryId : b.provider_ref === d.providerRef),
      );
      expect(found, `${d.class} ${d.detail}`).toBeDefined();
    }
    // And no other break names an allowed sub-merchant.
    for (const child of [ALLOWED_A, ALLOWED_B]) {
      const ofChild = breaks.filter((b) => b.entity === child);
      const injected = ledger.injected.filter((i) => i.entity === child);
      expect(ofChild, child).toHaveLength(injected.length);
    }
    // REFUSED's entries could not be read: each is a break under REFUSED, never under another.
    const refusedEntries = ledger.entries.filter((e) => e.entity === REFUSED);
    for (const b of breaks.filter((x) => x.entry_id?.startsWith(`${REFUSED}-`)))
      expect(b.entity).toBe(REFUSED);
    expect(breaks.filter((b) => b.entity === REFUSED).length).toBeGreaterThan(0);
    expect(breaks.filter((b) => b.entity === REFUSED).length).toBeLessThanOrEqual(
      refusedEntries.length,
    );

    // The bridge per entity and currency, and the platform's total per currency their sum.
    const perEntity = await queryText<{ entity: string; currency: string; difference: string }>(
      db,
      "SELECT entity, currency, difference::text AS difference FROM finance_entity_currency_bridge",
    );
    expect(new Set(perEntity.map((r) => r.entity))).toEqual(new Set(["", ...entities]));
    const total = await queryText<{ currency: string; difference: string }>(
      db,
      "SELECT currency, difference::text AS difference FROM finance_currency_bridge",
    );
    for (const t of total) {
      const parts = perEntity.filter((r) => r.currency === t.currency).map((r) => r.difference);
      expect(compareDecimal(sumDecimals(parts), t.difference), t.currency).toBe(0);
    }

    // The report: the platform's bridge per currency, then each entity's, tying to it.
    const report = await loadReport(db);
    for (const c of report.currencies)
      for (const key of ["providerTotal", "ledgerTotal", "difference", "openBreaks"] as const) {
        const parts = report.entities.filter((e) => e.currency === c.currency).map((e) => e[key]);
        expect(compareDecimal(sumDecimals(parts), c[key]), `${c.currency} ${key}`).toBe(0);
      }
    const text = renderText(report).join("\n");
    expect(text).toContain("Each entity's bridge per currency");
    for (const child of entities) expect(text).toContain(child);
    expect(text).toContain("(merchant)");

    // The report of one entity: its bridge per currency is its row of
    // finance_entity_currency_bridge and of the full report's per-entity section, its statement
    // adds up to it, and it shows that entity's breaks only, with no platform total.
    const bridgeColumns = ["providerTotal", "ledgerTotal", "difference", "timing", "openBreaks"];
    // docs/finance-queries.md question 16: the per-entity bridge, and one entity's statement.
    const [bridgeSql, statementSql] = documentedBlocks().get(16) as [string, string];
    type Keyed = { entity: string; currency: string; difference: string };
    const key = (r: Keyed) => `${r.entity} ${r.currency} ${r.difference}`;
    const documented = await queryText<Keyed>(db, bridgeSql);
    expect(documented.map(key).sort()).toEqual(perEntity.map(key).sort());
    for (const entity of ["", ALLOWED_A, ALLOWED_B]) {
      const one = await loadReport(db, { entities: [entity] });
      const rows = perEntity.filter((r) => r.entity === entity);
      expect(one.currencies.map((c) => c.currency)).toEqual(rows.map((r) => r.currency).sort());
      for (const c of one.currencies) {
        const row = rows.find((r) => r.currency === c.currency);
        expect(
          compareDecimal(c.difference, row?.difference ?? "x"),
          `${entity} ${c.currency}`,
        ).toBe(0);
        const section = report.entities.find(
          (e) => e.entity === entity && e.currency === c.currency,
        );
        for (const key of bridgeColumns as (keyof typeof c)[])
          expect(
            compareDecimal(c[key], section?.[key] ?? "x"),
            `${entity} ${c.currency} ${key}`,
          ).toBe(0);
        const days = one.statement
          .filter((d) => d.currency === c.currency)
          .map((d) => d.difference);
        expect(compareDecimal(sumDecimals(days), c.difference)).toBe(0);
      }
      const asDocumented = await queryText<{ day: string; currency: string; difference: string }>(
        db,
        statementSql.replace("WHERE entity = ''", `WHERE entity = '${entity}'`),
      );
      expect(asDocumented.map((d) => `${d.day} ${d.currency}`)).toEqual(
        one.statement.map((d) => `${d.day} ${d.currency}`),
      );
      for (const [i, d] of asDocumented.entries())
        expect(compareDecimal(d.difference, one.statement[i]?.difference ?? "x")).toBe(0);
      const ofEntity = breaks.filter((b) => b.entity === entity && b.status === "open");
      expect(one.openBreaks, entity).toBe(ofEntity.length);
      const queued = await queryText<{ entity: string }>(
        db,
        `SELECT DISTINCT entity FROM breaks WHERE break_id IN (${one.queue.map((q) => `'${q.breakId}'`).join(",") || "''"})`,
      );
      expect(queued.map((q) => q.entity)).toEqual(one.queue.length > 0 ? [entity] : []);
      // Card holds are the merchant's own.
      if (entity !== "") expect(one.staleAuthorizations).toEqual([]);
      const oneText = renderText(one).join("\n");
      expect(oneText).toContain(`report of entity ${entity === "" ? "(merchant)" : entity}`);
      expect(oneText).not.toContain("platform's total");
    }

    // An entry moved to another sub-merchant (a corrected entity) no longer books the first
    // one's posting: the entry is missing at the provider under its new entity, the posting
    // missing in the ledger under its own; the incremental run says what a full run says.
    const moved = ledger.entries.find(
      (e) =>
        e.entity === ALLOWED_A && !ledger.injected.some((i) => i.providerRef === e.providerRef),
    );
    if (!moved) throw new Error("no booked entry of a sub-merchant to move");
    await queryText(
      db,
      `UPDATE ledger_entries SET entity = '${ALLOWED_B}' WHERE entry_id = '${moved.entryId}'`,
    );
    const incremental = await runMatch(db, { asOf: new Date(now), maxScopeShare: 1 });
    expect(incremental.incremental).toBe(true);
    const afterIncremental = await storedResults(db);
    await runMatch(db, { asOf: new Date(now), full: true });
    expect(await storedResults(db)).toEqual(afterIncremental);
    const movedBreaks = await queryText<StoredBreak>(
      db,
      `SELECT class, entity, provider_ref, entry_id, status FROM breaks
       WHERE status <> 'resolved' AND provider_ref = '${moved.providerRef}'`,
    );
    expect(movedBreaks.map((b) => `${b.class} ${b.entity}`).sort()).toEqual([
      `missing_at_provider ${ALLOWED_B}`,
      `missing_in_ledger ${ALLOWED_A}`,
    ]);
  }, 240_000);
});
