// A platform merchant and two sub-merchants closed per entity (PGlite and, with DATABASE_URL,
// Postgres): the merchant's card activity with every injectable class injected, each
// sub-merchant's account movements with its own discrepancies, synced and matched. Each entity's
// breaks are exactly its injected discrepancies (class and entity: none missing, none extra, none
// under another entity); each entity's bridge ties per currency to its breaks' signed effects, to
// its queue totals and to its one-entity report; the platform's bridge is the entities' sum. A
// sub-merchant's break written off moves its own bridge's accepted figure and the journal, and
// nobody else's.

import { sumDecimals } from "@merchantkit/core";
import { type GroundTruth, subMerchantNos } from "@merchantkit/sandbox";
import { describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { loadExport } from "../export/export-table";
import { importLedger } from "../ledger/import-ledger";
import { runMatch } from "../match/run-match";
import { loadReport } from "../report/report-data";
import { runSync } from "../sync/run-sync";
import { INJECTABLE_CLASSES } from "../testing";
import { BRIDGE_COLUMNS, type BridgeColumn, sameAmount } from "../testing/bridge-ties";
import { testBackends } from "../testing/databases";
import {
  type GeneratedSandbox,
  SANDBOX_KEYS,
  sandboxSyncContext,
  useSandboxDatabase,
} from "../testing/sandbox";
import { writeLedger } from "../testing/write-ledger";
import { queueTotals } from "./queue-totals";
import { writeOffBreak } from "./write-off";

const CHILDREN = subMerchantNos(2) as [string, string];
const PARENT = SANDBOX_KEYS.MERCHANT_NO;
type Bridge = Record<BridgeColumn | "currency" | "entity", string>;

describe.each(testBackends())("a platform closed per entity on %s", (kind) => {
  let db: Db;
  let generated: GeneratedSandbox;
  useSandboxDatabase(
    kind,
    { seed: 11, cardTransactions: 500, cards: 30, days: 20, children: CHILDREN },
    (database, sandbox) => {
      db = database.db;
      generated = sandbox;
    },
  );
  const rows = <T extends Record<string, unknown>>(text: string) => queryText<T>(db, text);

  async function ties(step: string): Promise<void> {
    const cols = BRIDGE_COLUMNS.map((c) => `${c}::text AS ${c}`).join(", ");
    const perEntity = await rows<Bridge>(
      `SELECT entity, currency, ${cols} FROM finance_entity_currency_bridge ORDER BY entity, currency`,
    );
    const platform = await rows<Bridge>(
      `SELECT currency, ${cols} FROM finance_currency_bridge ORDER BY currency`,
    );
    const effects = await rows<{ entity: string; currency: string; status: string; e: string }>(
      `SELECT entity, currency, status, sum(effect)::text AS e FROM finance_break_effects
       GROUP BY entity, currency, status`,
    );
    expect(new Set(perEntity.map((r) => r.entity)), step).toEqual(new Set(["", ...CHILDREN]));
    for (const p of platform)
      for (const column of BRIDGE_COLUMNS) {
        const parts = perEntity.filter((r) => r.currency === p.currency).map((r) => r[column]);
        expect(sameAmount(sumDecimals(parts), p[column]), `${step}: ${p.currency} ${column}`).toBe(
          true,
        );
      }
    for (const entity of ["", ...CHILDREN]) {
      const mine = perEntity.filter((r) => r.entity === entity);
      const totals = await queueTotals(db, { entity });
      const report = await loadReport(db, { entities: [entity] });
      // The entity's breaks download: its rows name the entity, its effects add up per currency.
      const exported = await loadExport(db, "breaks", { entity });
      const col = (name: string) => exported.columns.findIndex((c) => c.name === name);
      const cells = exported.rows.map((r) => [r[col("entity")], r[col("effects")] ?? ""]);
      expect(new Set(cells.map(([e]) => e)).size <= 1 && (cells[0]?.[0] ?? entity) === entity).toBe(
        true,
      );
      const exportedEffect = (currency: string) =>
        sumDecimals(
          cells
            .flatMap(([, e]) => (e as string).split(";"))
            .filter((e) => e.startsWith(`${currency}=`))
            .map((e) => e.slice(4)),
        );
      expect(report.currencies.map((c) => c.currency)).toEqual(mine.map((r) => r.currency));
      for (const b of mine) {
        const at = `${step}: entity '${entity}' ${b.currency}`;
        const effect = (status: string) =>
          effects.find(
            (e) => e.entity === entity && e.currency === b.currency && e.status === status,
          )?.e;
        const parts = [b.timing, b.open_breaks, b.pending, b.accepted, b.unexplained];
        expect(sameAmount(sumDecimals(parts), b.difference), `${at} adds up`).toBe(true);
        expect(sameAmount(b.unexplained, "0"), `${at} unexplained`).toBe(true);
        expect(sameAmount(effect("open"), b.open_breaks), `${at} open`).toBe(true);
        expect(sameAmount(effect("pending"), b.pending), `${at} pending`).toBe(true);
        expect(sameAmount(effect("accepted"), b.accepted), `${at} accepted`).toBe(true);
        const queued = totals.find((t) => t.currency === b.currency)?.effect;
        expect(sameAmount(queued, sumDecimals([b.open_breaks, b.pending])), `${at} queue`).toBe(
          true,
        );
        const openAndPending = sumDecimals([b.open_breaks, b.pending]);
        expect(sameAmount(exportedEffect(b.currency), openAndPending), `${at} export`).toBe(true);
        const shown = report.currencies.find((c) => c.currency === b.currency);
        expect(sameAmount(shown?.difference, b.difference), `${at} report`).toBe(true);
        expect(sameAmount(shown?.openBreaks, b.open_breaks), `${at} report open`).toBe(true);
        expect(sameAmount(shown?.accepted, b.accepted), `${at} report accepted`).toBe(true);
      }
    }
  }

  it("finds each entity's breaks and nothing else, and each entity's figures tie", async () => {
    const { sandbox, now } = generated;
    const res = await fetch(`${sandbox.url}/__sandbox/account/generate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ seed: 4, movements: 15, days: 8 }),
    });
    expect(res.status).toBe(200);
    const truth = (await sandbox.admin.state()) as unknown as GroundTruth;
    const ledger = writeLedger(truth, {
      seed: 4,
      asOf: now,
      discrepancies: INJECTABLE_CLASSES,
      subMerchantDiscrepancies: {
        missing_at_provider: 1,
        amount_mismatch: 2,
        duplicate_in_ledger: 1,
      },
    });
    await importLedger(db, ledger.csv, {
      sourceFile: "platform.csv",
      entities: { merchantNo: PARENT, subMerchants: CHILDREN },
    });
    const ctx = sandboxSyncContext(db, generated, { RECONCILER_ENTITIES: CHILDREN.join(",") });
    const summary = await runSync(ctx);
    expect(summary.streams.account_transactions?.outcome, ctx.lines.join("\n")).toBe("ok");
    await runMatch(db, { asOf: new Date(now) });

    // Ground truth: each discrepancy is one break of its class under its entity, and every
    // break is one of them.
    const breaks = await rows<{
      break_id: string;
      class: string;
      entity: string;
      provider_ref: string | null;
      entry_id: string | null;
    }>(
      `SELECT break_id, class, entity, provider_ref, entry_id FROM breaks
       WHERE status <> 'resolved' ORDER BY break_id`,
    );
    const left = [...breaks];
    const unfound: string[] = [];
    for (const d of ledger.injected) {
      const entity = d.entity === undefined || d.entity === PARENT ? "" : d.entity;
      const i = left.findIndex(
        (b) =>
          b.class === d.class &&
          ((d.providerRef !== undefined && b.provider_ref === d.providerRef) ||
            (d.entryId !== undefined && b.entry_id === d.entryId)),
      );
      if (i < 0) unfound.push(`${d.class} ${d.detail}`);
      else expect(left.splice(i, 1)[0]?.entity, `${d.class} ${d.detail}`).toBe(entity);
    }
    expect(unfound).toEqual([]);
    expect(left.map((b) => `${b.class} ${b.entity} ${b.provider_ref} ${b.entry_id}`)).toEqual([]);
    for (const child of CHILDREN)
      expect(breaks.filter((b) => b.entity === child)).toHaveLength(
        ledger.injected.filter((d) => d.entity === child).length,
      );
    await ties("after the run");

    // A sub-merchant's break written off: its bridge takes it as accepted, the journal books it.
    const [child] = CHILDREN;
    const [target] = breaks.filter((b) => b.entity === child && b.class === "amount_mismatch");
    expect(target).toBeDefined();
    await writeOffBreak(db, {
      breakId: target?.break_id as string,
      actor: "sam",
      account: "6000 misc",
      reason: "agreed with the sub-merchant",
    });
    await ties("after the write-off");
    const [booked] = await rows<{ currency: string; amount: string }>(
      `SELECT currency, sum(amount)::text AS amount FROM journal_entries GROUP BY currency`,
    );
    const [accepted] = await rows<{ currency: string; accepted: string }>(
      `SELECT currency, accepted::text AS accepted FROM finance_entity_currency_bridge
       WHERE entity = '${child}' AND accepted <> 0`,
    );
    expect(accepted?.currency).toBe(booked?.currency);
    expect(sameAmount(accepted?.accepted, booked?.amount)).toBe(true);
    await runMatch(db, { asOf: new Date(now) });
    await ties("after the next run");
  }, 300_000);
});
