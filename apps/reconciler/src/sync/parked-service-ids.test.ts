// Bad serviceIds among good ones (as an older importer stored them): the account stream isolates
// and parks them, reads every other id, shows them in status and a finance view, and tries a
// parked id again when the ledger entry naming it changes. PGlite and, with DATABASE_URL, Postgres.
import { describe, expect, it } from "vitest";
import { readStatus } from "../cli/commands/status";
import type { Db } from "../db/database";
import { queryText } from "../db/query-rows";
import { importLedger } from "../ledger/import-ledger";
import { parkServiceIds } from "../store/service-ids";
import { testBackends } from "../testing/databases";
import {
  type GeneratedSandbox,
  sandboxSyncContext,
  storedOf,
  truthOf,
  useSandboxDatabase,
} from "../testing/sandbox";
import { runSync } from "./run-sync";

const HEADER = "entry_id,kind,provider_ref,amount,currency,booked_at,fee_type,card_id,description";
// Not ids the service could take: letters, a leading zero, past 64 bits.
const BAD = ["abc", "00123", "18446744073709551616"];

describe.each(testBackends())("parked serviceIds on %s", (kind) => {
  let db: Db;
  let generated: GeneratedSandbox;
  useSandboxDatabase(kind, { cardTransactions: 600, cards: 10, days: 4 }, (database, sandbox) => {
    db = database.db;
    generated = sandbox;
  });

  it("isolates the bad ids, reads every other one and shows what it parked", async () => {
    await queryText(
      db,
      `INSERT INTO service_ids (service_id, source) VALUES ${BAD.map((id) => `('${id}', 'ledger')`).join(", ")}`,
    );
    const ctx = sandboxSyncContext(db, generated);
    const summary = await runSync(ctx);
    expect(summary.streams.account_transactions?.outcome, ctx.lines.join("\n")).toBe("ok");
    expect(summary.unread?.count).toBe(0);
    expect(await storedOf(db)).toEqual(await truthOf(generated.sandbox));

    const parked = await queryText<{ service_id: string; parked_reason: string }>(
      db,
      "SELECT service_id, parked_reason FROM finance_parked_service_ids ORDER BY service_id",
    );
    expect(parked.map((p) => p.service_id)).toEqual([...BAD].sort());
    for (const p of parked)
      expect(p.parked_reason).toMatch(/RequestValidationError.*serviceIds\[0\]: must be/);
    const logged = ctx.lines.filter((l) => l.includes("parked"));
    expect(logged).toHaveLength(BAD.length);

    const account = (await readStatus(db)).find((s) => s.stream === "account_transactions");
    expect(account?.serviceIdsParked).toBe(BAD.length);
    expect(account?.unread.count).toBe(0);
    const [health] = await queryText<{ service_ids_parked: string }>(
      db,
      "SELECT service_ids_parked FROM finance_sync_health WHERE stream = 'account_transactions'",
    );
    expect(Number(health?.service_ids_parked)).toBe(BAD.length);

    // A second run does not ask for them again.
    const again = sandboxSyncContext(db, generated);
    await runSync(again);
    expect(again.lines.filter((l) => l.includes("parked"))).toEqual([]);
  }, 120_000);

  it("tries a parked id again when the ledger entry naming it changes", async () => {
    const [known] = await queryText<{ service_id: string }>(
      db,
      "SELECT service_id FROM service_ids WHERE parked_reason IS NULL ORDER BY service_id LIMIT 1",
    );
    const id = known?.service_id as string;
    // As if the service had refused it once.
    await parkServiceIds(
      db,
      [{ serviceId: id, reason: "InvalidRequestError: refused" }],
      new Date(),
    );
    const unchanged = sandboxSyncContext(db, generated);
    await runSync(unchanged);
    expect(await parkedIds()).toContain(id);

    await importLedger(
      db,
      `${HEADER}\nL-parked-1,account,${id},10.00,USD,2026-11-20T10:00:00Z,,,top-up\n`,
    );
    const retried = sandboxSyncContext(db, generated);
    await runSync(retried);
    expect(await parkedIds()).not.toContain(id);
  }, 120_000);

  async function parkedIds() {
    const rows = await queryText<{ service_id: string }>(
      db,
      "SELECT service_id FROM finance_parked_service_ids",
    );
    return rows.map((r) => r.service_id);
  }
});
