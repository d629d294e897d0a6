// The CLI as a real process: killed with SIGKILL mid-sync and started again it ends with the
// sandbox's tables (no loss, no duplicates); two workers started together never run the same
// stream. PGlite (a data folder) and, with DATABASE_URL, a Postgres server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../db/connect";
import type { DatabaseKind } from "../db/database";
import { queryText } from "../db/query-rows";
import { createScratchDatabase, type ScratchDatabase } from "../db/scratch-database";
import { lastRuns } from "../store/sync-runs";
import { logged, spawnCli } from "../testing/cli";
import { temporaryFolder, testBackends } from "../testing/databases";
import {
  type GeneratedSandbox,
  sandboxEnv,
  startGeneratedSandbox,
  storedOf,
  truthOf,
} from "../testing/sandbox";

interface Target {
  env: Record<string, string>;
  args: string[];
  open(): ReturnType<typeof openDatabase>;
  dispose(): Promise<void>;
}

async function target(kind: DatabaseKind): Promise<Target> {
  if (kind === "pglite") {
    const folder = temporaryFolder("reconciler-crash-");
    return {
      env: {},
      args: ["--data-dir", folder.path],
      open: () => openDatabase({ dataDir: folder.path }),
      dispose: async () => folder.remove(),
    };
  }
  const server = process.env.DATABASE_URL;
  if (!server)
    throw new Error("DATABASE_URL is not set, but CI requires the Postgres server variant");
  const scratch: ScratchDatabase = await createScratchDatabase(server, "reconciler_test");
  return {
    env: { DATABASE_URL: scratch.url },
    args: [],
    open: () => openDatabase({ url: scratch.url, maxConnections: 2 }),
    dispose: () => scratch.drop(),
  };
}

describe.each(testBackends())("the reconciler process on %s", (kind) => {
  let generated: GeneratedSandbox;
  let env: Record<string, string>;
  beforeAll(async () => {
    generated = await startGeneratedSandbox({ cardTransactions: 10_000, cards: 30, days: 10 });
    env = sandboxEnv(generated, {
      // No lookback: a restart reads only from the watermark on, so anything the killed run
      // let the watermark pass must really be in the tables.
      RECONCILER_LOOKBACK: "0s",
      RECONCILER_WINDOW: "1h",
      RECONCILER_RPS: "150",
    });
  }, 120_000);
  afterAll(() => generated?.sandbox.close());

  it("killed with SIGKILL mid-sync and restarted, ends with the same tables", async () => {
    const t = await target(kind);
    try {
      const first = spawnCli(["sync", ...t.args], { ...env, ...t.env });
      await first.waitFor((line) => line.includes('"msg":"window committed"'), 40);
      first.child.kill("SIGKILL");
      const killed = await first.exited;
      expect(killed.signal).toBe("SIGKILL");
      expect(logged(first.err, "stream finished")).toEqual([]); // really cut short

      const second = spawnCli(["sync", ...t.args], { ...env, ...t.env });
      const done = await second.exited;
      expect(done.code, second.err.slice(-10).join("\n")).toBe(0);
      // The restart started at the watermark the killed run left, not at the beginning.
      const planned = logged(second.err, "windows planned").find(
        (e) => e.stream === "card_transactions",
      );
      expect(planned?.watermark).not.toBeNull();

      const status = spawnCli(["status", ...t.args], { ...env, ...t.env });
      expect((await status.exited).code).toBe(0);
      const card = status.out
        .map((l) => JSON.parse(l))
        .find((s) => s.stream === "card_transactions");
      expect(card.lastRun.outcome).toBe("ok");

      const database = await t.open();
      try {
        expect(await storedOf(database.db)).toEqual(await truthOf(generated.sandbox));
        // No record written twice: one version per record (nothing changed in the sandbox).
        for (const [table, versions] of [
          ["card_transactions", "card_transaction_versions"],
          ["operate_records", "operate_record_versions"],
          ["account_transactions", "account_transaction_versions"],
        ]) {
          const [rows] = await queryText<{ n: string }>(
            database.db,
            `SELECT count(*) AS n FROM ${table}`,
          );
          const [vers] = await queryText<{ n: string }>(
            database.db,
            `SELECT count(*) AS n FROM ${versions}`,
          );
          expect(vers?.n, table).toBe(rows?.n);
        }
        // The killed run's row, left open, was closed as failed by the restarted run: that is
        // how a crash shows in status (open for ever before).
        const runs = await lastRuns(database.db, { stream: "card_transactions" });
        expect(runs.map((r) => r.outcome)).toEqual(["ok", "failed"]);
        expect(runs[1]?.error).toMatch(/^ended without closing its run row/);
      } finally {
        await database.close();
      }
    } finally {
      await t.dispose();
    }
  }, 180_000);

  it("schedule: SIGTERM lets the window in hand commit, then exits 0", async () => {
    const t = await target(kind);
    try {
      // A cron that never fires during the test: --run-now starts the one run.
      const args = ["schedule", "--run-now", "--cron", "0 0 1 1 *", ...t.args];
      const worker = spawnCli(args, { ...env, ...t.env });
      await worker.waitFor((line) => line.includes('"msg":"window committed"'), 5);
      worker.child.kill("SIGTERM");
      const done = await worker.exited;
      expect(done.code, worker.err.slice(-10).join("\n")).toBe(0);
      expect(logged(worker.err, "schedule stopped")).toHaveLength(1);
      const finished = logged(worker.err, "stream finished");
      expect(finished.map((e) => e.outcome)).toContain("partial");
      const database = await t.open();
      try {
        const runs = await lastRuns(database.db, { stream: "card_transactions" });
        expect(runs[0]?.kind).toBe("schedule");
        expect(runs[0]?.outcome).toBe("partial");
        expect(runs[0]?.error).toMatch(/stopped before/);
        // Every committed window's rows are whole: what the run counted is what is stored.
        const [rows] = await queryText<{ n: string }>(
          database.db,
          "SELECT count(*) AS n FROM card_transactions",
        );
        expect(Number(rows?.n)).toBe(runs[0]?.inserted);
      } finally {
        await database.close();
      }
    } finally {
      await t.dispose();
    }
  }, 180_000);

  // Two processes cannot share one PGlite data folder (PGlite has no inter-process locking), so
  // this test exists for a Postgres server only; PGlite's in-process exclusion is tested in sync.
  if (kind === "postgres") {
    it("two workers started at once never run the same stream", async () => {
      const t = await target(kind);
      try {
        const a = spawnCli(["sync"], { ...env, ...t.env, RECONCILER_RPS: "100" });
        const b = spawnCli(["sync"], { ...env, ...t.env, RECONCILER_RPS: "100" });
        const [ea, eb] = await Promise.all([a.exited, b.exited]);
        expect([ea.code, eb.code]).toEqual([0, 0]);
        for (const stream of ["card_transactions", "operate_records"]) {
          const ran = [a, b].filter((p) =>
            logged(p.err, "stream started").some((e) => e.stream === stream),
          );
          const busy = [a, b].filter((p) =>
            logged(p.err, "stream busy: another worker holds its lock; skipped").some(
              (e) => e.stream === stream,
            ),
          );
          expect([ran.length, busy.length], stream).toEqual([1, 1]);
        }
        const database = await t.open();
        try {
          expect(await storedOf(database.db)).toEqual(await truthOf(generated.sandbox));
          const [versions] = await queryText<{ n: string }>(
            database.db,
            "SELECT count(*) AS n FROM card_transaction_versions",
          );
          expect(Number(versions?.n)).toBe(10_000);
        } finally {
          await database.close();
        }
      } finally {
        await t.dispose();
      }
    }, 180_000);
  }
});
