// Every endpoint failing is a failed run (exit 1, docs/reconciler.md "Exit codes"), not a partial
// one: the account stream, with no serviceId due, read nothing and succeeded at nothing.
import { describe, expect, it } from "vitest";
import type { Db } from "../db/database";
import { EXIT } from "../exit-codes";
import { testBackends } from "../testing/databases";
import { type GeneratedSandbox, sandboxSyncContext, useSandboxDatabase } from "../testing/sandbox";
import { exitCodeOf } from "./exit-code";
import { runSync } from "./run-sync";

const SETTINGS = { RECONCILER_MAX_RETRIES: "0", RECONCILER_LOOKBACK: "1d" };

describe.each(testBackends())("every endpoint failing on %s", (kind) => {
  let db: Db;
  let generated: GeneratedSandbox;
  useSandboxDatabase(kind, { cardTransactions: 200, cards: 4, days: 2 }, (database, sandbox) => {
    db = database.db;
    generated = sandbox;
  });

  it("fails the run (exit 1) when every window that was due failed", async () => {
    const { sandbox } = generated;
    // Everything read once: no serviceId is due afterwards.
    const healthy = await runSync(sandboxSyncContext(db, generated, SETTINGS));
    expect(exitCodeOf(healthy)).toBe(EXIT.ok);

    await sandbox.admin.faults().catch(() => undefined);
    await sandbox.admin.injectFault({ path: "*", kind: "http_status", status: 503 });
    const summary = await runSync(sandboxSyncContext(db, generated, SETTINGS));
    expect(summary.streams.card_transactions?.outcome).toBe("failed");
    expect(summary.streams.operate_records?.outcome).toBe("failed");
    expect(summary.streams.account_transactions).toMatchObject({ outcome: "ok", windows: 0 });
    expect(summary.outcome).toBe("failed");
    expect(exitCodeOf(summary)).toBe(EXIT.failed);
    // The failed windows are still on record, to be read by a later run.
    expect(summary.unread?.count).toBeGreaterThan(0);

    // Operation records read, card transactions not: partial (exit 3), as before.
    await sandbox.admin.clearFaults();
    await sandbox.admin.injectFault({
      path: "/api/v1/merchant/queryTxnList",
      kind: "http_status",
      status: 503,
    });
    const partial = await runSync(sandboxSyncContext(db, generated, SETTINGS));
    expect(partial.outcome).toBe("partial");
    expect(exitCodeOf(partial)).toBe(EXIT.unread);
    await sandbox.admin.clearFaults();
  }, 120_000);
});
