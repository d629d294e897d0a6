// The whole cycle as merchants run it — `reconciler run` once, `reconciler match` without the
// provider, `reconciler schedule` tick after tick — on a generated sandbox: ledger files dropped
// into the folder are taken in (a bad one rejected without stopping sync and match), the
// report lands in its folder, and every cycle ends with one JSON summary line and an honest
// exit code.
import { existsSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { GroundTruth } from "@merchantkit/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeLedger } from "../testing";
import { logged, spawnCli } from "../testing/cli";
import { temporaryFolder } from "../testing/databases";
import { type GeneratedSandbox, sandboxEnv, startGeneratedSandbox } from "../testing/sandbox";

const PAST = new Date(Date.now() - 60_000);
const BAD = [
  "entry_id,kind,provider_ref,amount,currency,booked_at",
  "X-1,account,abc,1.00,USD,2026-05-01",
].join("\n");

function drop(folder: string, name: string, text: string) {
  writeFileSync(join(folder, name), text);
  utimesSync(join(folder, name), PAST, PAST);
}

function summaryOf(lines: readonly string[]) {
  const found = logged(lines, "cycle finished");
  return found as {
    verdict: string;
    openBreaks: number | null;
    ledger: {
      folder?: { imported: { name: string; rows: number }[]; rejected: { name: string }[] };
    };
    sync: "skipped" | { outcome: string; streams: Record<string, { outcome: string }> };
    report?: { files: string[] };
    match?: { mode?: string } | { error: string } | string;
    exitCode: number;
  }[];
}

describe("the reconciliation cycle", () => {
  let generated: GeneratedSandbox;
  let data: ReturnType<typeof temporaryFolder>;
  let ledgerDir: ReturnType<typeof temporaryFolder>;
  let reportDir: ReturnType<typeof temporaryFolder>;
  let env: Record<string, string>;
  let csv: string;
  beforeAll(async () => {
    generated = await startGeneratedSandbox({ cardTransactions: 1_500, cards: 10, days: 5 });
    const truth = (await generated.sandbox.admin.state()) as unknown as GroundTruth;
    csv = writeLedger(truth, { seed: 3, discrepancies: [] }).csv;
    data = temporaryFolder("cycle-data-");
    ledgerDir = temporaryFolder("cycle-ledger-");
    reportDir = temporaryFolder("cycle-report-");
    env = sandboxEnv(generated, {
      RECONCILER_DATA_DIR: data.path,
      RECONCILER_LEDGER_DIR: ledgerDir.path,
      RECONCILER_REPORT_DIR: reportDir.path,
      RECONCILER_WINDOW: "1d",
    });
  }, 120_000);
  afterAll(async () => {
    await generated?.sandbox.close();
    for (const f of [data, ledgerDir, reportDir]) f?.remove();
  });

  it("run: takes the good file in, rejects the bad one, still syncs, matches and reports", async () => {
    drop(ledgerDir.path, "ledger-1.csv", csv);
    drop(ledgerDir.path, "broken.csv", BAD);
    const cli = spawnCli(["run", "--max-sync-lag", "30d"], env);
    const { code } = await cli.exited;
    const [summary, ...more] = summaryOf(cli.out);
    expect(more).toEqual([]);
    if (!summary) throw new Error(`no summary line:\n${cli.err.slice(-20).join("\n")}`);
    expect(summary?.ledger.folder?.imported.map((f) => f.name)).toEqual(["ledger-1.csv"]);
    expect(summary?.ledger.folder?.rejected.map((f) => f.name)).toEqual(["broken.csv"]);
    expect(summary?.sync).toMatchObject({ outcome: "ok" });
    expect(Object.keys((summary.sync as { streams: object }).streams).sort()).toEqual([
      "account_transactions",
      "card_transactions",
      "operate_records",
      "payouts",
    ]);
    expect(["reconciled", "reconciled_with_pending", "breaks"]).toContain(summary?.verdict);
    expect(summary?.report?.files.map((f) => f.slice(reportDir.path.length + 1))).toEqual([
      "report.html",
      "statement.csv",
    ]);
    expect(readFileSync(join(reportDir.path, "statement.csv"), "utf8")).toMatch(
      /^day,currency,provider_total,ledger_total,difference/,
    );
    // Refused ledger input is not "all done": exit non-zero, with the summary saying why.
    expect(summary?.exitCode).toBe(code);
    expect(code).not.toBe(0);
    expect(existsSync(join(ledgerDir.path, "rejected", "broken.csv.reason.txt"))).toBe(true);
  }, 120_000);

  it("match: re-matches after a corrected ledger without provider credentials", async () => {
    drop(ledgerDir.path, "correction.csv", csv.replace(/\n([^,\n]+),/, "\nCORR-$1,"));
    const { ISSUING_API_KEY: _i, ACCOUNT_API_KEY: _a, MERCHANTKIT_ENVIRONMENT: _e, ...bare } = env;
    const cli = spawnCli(["match", "--max-sync-lag", "30d"], bare);
    const { code } = await cli.exited;
    const [summary] = summaryOf(cli.out);
    expect(summary?.sync).toBe("skipped");
    expect(summary?.ledger.folder?.imported.map((f) => f.name)).toEqual(["correction.csv"]);
    expect(summary?.verdict).not.toBe("not matched");
    expect(code).toBe(0);
    expect(summary?.exitCode).toBe(0);
    // --full is a switch (it was read as a flag taking a value and refused: exit 2).
    const full = spawnCli(["match", "--full", "--max-sync-lag", "30d"], bare);
    expect((await full.exited).code).toBe(0);
    expect(summaryOf(full.out)[0]?.match).toMatchObject({ mode: "full" });
  }, 120_000);

  it("schedule: runs the cycle on each tick, taking in files dropped between ticks", async () => {
    const cli = spawnCli(
      ["schedule", "--cron", "*/2 * * * * *", "--run-now", "--max-sync-lag", "30d"],
      env,
    );
    try {
      const cycles = () => summaryOf(cli.out);
      const until = async (ok: () => boolean) => {
        for (let i = 0; i < 600 && !ok(); i++) await new Promise((r) => setTimeout(r, 100));
        expect(ok()).toBe(true);
      };
      await until(() => cycles().length >= 1);
      drop(ledgerDir.path, "late.csv", csv.replace(/\n([^,\n]+),/, "\nLATE-$1,"));
      await until(() =>
        cycles().some((c) => c.ledger.folder?.imported.some((f) => f.name === "late.csv")),
      );
      expect(cycles().every((c) => typeof c.sync === "object" && c.sync.outcome === "ok")).toBe(
        true,
      );
    } finally {
      cli.child.kill("SIGTERM");
    }
    const { code } = await cli.exited;
    expect(code).toBe(0);
  }, 180_000);
});
