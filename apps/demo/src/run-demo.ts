// The whole product in one command: a sandbox in this process with generated data, the
// merchant's ledger written from its ground truth with discrepancies injected, a sync into an
// embedded database, one match run, and the report — with every injected discrepancy found.
import { mkdirSync, mkdtempSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  createSyncContext,
  formatSeconds,
  importLedger,
  loadConfig,
  loadReport,
  type MatchRunResult,
  matchResultLines,
  openDatabase,
  queryText,
  renderHtml,
  renderText,
  runMatch,
  runSync,
  type SyncProgress,
  type SyncSummary,
} from "@merchantkit/reconciler";
import {
  type InjectableClass,
  type InjectedDiscrepancy,
  writeLedger,
} from "@merchantkit/reconciler/testing";
import { type GroundTruth, startSandbox } from "@merchantkit/sandbox";

export interface DemoOptions {
  seed?: number;
  cards?: number;
  cardTransactions?: number;
  days?: number;
  /** PGlite data folder; default a new temporary folder. */
  dataDir?: string | undefined;
  /** Where the HTML report goes; default report.html in the data folder. */
  htmlPath?: string | undefined;
  discrepancies?: readonly InjectableClass[] | Partial<Record<InjectableClass, number>> | undefined;
  /** A line for the person watching. */
  out: (line: string) => void;
  onProgress?: ((p: SyncProgress) => void) | undefined;
  signal?: AbortSignal | undefined;
}

export interface DemoCheck {
  discrepancy: InjectedDiscrepancy;
  /** The break that reports it, when found. */
  breakId: string | undefined;
}

export interface DemoResult {
  dataDir: string;
  ledgerFile: string;
  htmlFile: string;
  sync: SyncSummary;
  match: MatchRunResult;
  checks: DemoCheck[];
  /** Open breaks nothing injected explains (should be none). */
  unexpected: { breakId: string; class: string; detail: string }[];
  seconds: number;
}

const DAY = 86_400_000;

export async function runDemo(opts: DemoOptions): Promise<DemoResult> {
  const t0 = Date.now();
  const seed = opts.seed ?? 42;
  const days = opts.days ?? 30;
  const dataDir = resolve(opts.dataDir ?? mkdtempSync(join(tmpdir(), "reconciler-demo-")));
  // A --data-dir that does not exist yet is made (the ledger file is written there first).
  mkdirSync(dataDir, { recursive: true });
  const say = opts.out;
  const elapsed = () => formatSeconds((Date.now() - t0) / 1000);

  // The clock is frozen a minute behind real time: every generated record is in the past for the
  // sync, and the data does not move while the demo runs.
  const sandbox = await startSandbox({ timestampSkewMs: 366 * DAY });
  try {
    const now = Math.floor((Date.now() - 60_000) / 1000) * 1000;
    await sandbox.admin.freezeClock(now);
    const size = { cards: opts.cards ?? 1_000, cardTransactions: opts.cardTransactions ?? 100_000 };
    say(
      `1/5 sandbox at ${sandbox.url}: generating ${size.cardTransactions.toLocaleString("en-US")} card transactions on ${size.cards.toLocaleString("en-US")} cards over ${days} days (seed ${seed})`,
    );
    const res = await fetch(`${sandbox.url}/__sandbox/issuing/generate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ seed, ...size, days }),
    });
    if (!res.ok) throw new Error(`generate: HTTP ${res.status} ${await res.text()}`);
    // The platform's sub-merchants (the sandbox's children) get account movements of their own:
    // the ledger books them under their entity, and the worker reads them on their behalf.
    const subMerchants = Object.keys(sandbox.runtime().ledgers.subMerchants());
    if (subMerchants.length > 0) {
      const sub = await fetch(`${sandbox.url}/__sandbox/account/generate`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ seed, movements: 20, days }),
      });
      if (!sub.ok) throw new Error(`account generate: HTTP ${sub.status} ${await sub.text()}`);
    }
    // The same records admin.state() answers, read in process: no 100 MB JSON round trip.
    const truth: GroundTruth = {
      clock: { now },
      ledger: { transactions: sandbox.runtime().ledger.transactions },
      subMerchantLedgers: sandbox.runtime().ledgers.subMerchants(),
      areas: Object.fromEntries(sandbox.areas().map((a) => [a.name, a.dump()])),
    };

    say(`    generated in ${elapsed()}`);
    const ledger = writeLedger(truth, {
      seed,
      asOf: now,
      discrepancies: opts.discrepancies,
      subMerchantDiscrepancies:
        subMerchants.length > 0 && opts.discrepancies === undefined
          ? { missing_at_provider: 1, amount_mismatch: 1, duplicate_in_ledger: 1 }
          : undefined,
    });
    const ledgerFile = join(dataDir, "ledger.csv");
    await writeFile(ledgerFile, ledger.csv, "utf8");
    say(
      `2/5 merchant ledger written: ${ledger.entries.length.toLocaleString("en-US")} entries in ${ledgerFile}, with these discrepancies:`,
    );
    for (const d of ledger.injected.filter((x) => x.origin === "injected"))
      say(`    ${d.class.padEnd(26)} ${d.detail}`);
    const natural = ledger.injected.filter((x) => x.origin === "ground_truth");
    if (natural.length > 0)
      say(
        `    ${"stale_authorization".padEnd(26)} ${natural.length} authorizations of the generated data still held after 7 days`,
      );

    const database = await openDatabase({ dataDir });
    try {
      const db = database.db;
      const imported = await importLedger(db, ledger.csv, {
        sourceFile: ledgerFile,
        entities: { merchantNo: "M1000001", subMerchants },
      });
      const config = loadConfig({
        MERCHANTKIT_ENVIRONMENT: sandbox.url,
        ISSUING_API_KEY: "sandbox-issuing-api-key",
        ACCOUNT_API_KEY: "sandbox-account-api-key",
        PAYOUT_SECRET_KEY: "sandbox-secret-key",
        MERCHANT_NO: "M1000001",
        RECONCILER_ENTITIES: subMerchants.join(","),
        RECONCILER_START: new Date(now - (days + 1) * DAY).toISOString(),
        RECONCILER_LOOKBACK: `${days + 2}d`,
        RECONCILER_RPS: "100000",
        RECONCILER_CONCURRENCY: "4",
        RECONCILER_DATA_DIR: dataDir,
      });
      say(
        `3/5 ledger imported (${imported.inserted} new); syncing the provider's records into PGlite at ${dataDir} (${elapsed()})`,
      );
      const sync = await runSync(createSyncContext(config, db, { log: () => {} }), {
        signal: opts.signal,
        onProgress: opts.onProgress,
      });
      const counts = Object.entries(sync.streams)
        .map(([stream, s]) => `${stream} ${s?.recordsSeen ?? 0} (${s?.outcome})`)
        .join(", ");
      say(`    synced ${counts} in ${formatSeconds(sync.seconds)}`);

      say(`4/5 matching (${elapsed()})`);
      const match = await runMatch(db, { asOf: new Date(now) });
      for (const line of matchResultLines(match, true)) say(`    ${line.trim()}`);

      const open = await queryText<{
        break_id: string;
        class: string;
        provider_ref: string | null;
        entry_id: string | null;
        detail: string;
      }>(
        db,
        `SELECT break_id, class, provider_ref, entry_id, detail FROM breaks WHERE status = 'open' ORDER BY priority, break_id`,
      );
      const left = [...open];
      const checks: DemoCheck[] = ledger.injected.map((d) => {
        const i = left.findIndex(
          (b) =>
            b.class === d.class &&
            ((d.providerRef !== undefined && b.provider_ref === d.providerRef) ||
              (d.entryId !== undefined && b.entry_id === d.entryId)),
        );
        const found = i >= 0 ? left.splice(i, 1)[0] : undefined;
        return { discrepancy: d, breakId: found?.break_id };
      });
      const unexpected = left.map((b) => ({
        breakId: b.break_id,
        class: b.class,
        detail: b.detail,
      }));

      say(`5/5 report (${elapsed()})`);
      const data = await loadReport(db, { queueLimit: 200 });
      for (const line of renderText(data, { queueRows: 15 })) say(`    ${line}`);
      const htmlFile = resolve(opts.htmlPath ?? join(dataDir, "report.html"));
      await writeFile(htmlFile, renderHtml(data), "utf8");
      say("");
      const found = checks.filter((c) => c.breakId).length;
      say(`Injected discrepancies found: ${found} of ${checks.length}`);
      for (const c of checks.filter((x) => x.discrepancy.origin === "injected"))
        say(
          `  ${c.breakId ? "✓" : "✗"} ${c.discrepancy.class.padEnd(26)} ${c.breakId ? `break ${c.breakId}` : "NOT FOUND"}  ${c.discrepancy.providerRef ?? c.discrepancy.entryId ?? ""}`,
        );
      const stale = checks.filter((x) => x.discrepancy.origin === "ground_truth");
      if (stale.length > 0)
        say(
          `  ${stale.every((c) => c.breakId) ? "✓" : "✗"} ${"stale_authorization".padEnd(26)} ${stale.filter((c) => c.breakId).length} of ${stale.length} found`,
        );
      if (unexpected.length > 0) {
        say(`Breaks nothing injected explains: ${unexpected.length}`);
        for (const u of unexpected.slice(0, 20)) say(`  ? ${u.class} ${u.detail}`);
      }
      say(`HTML report: ${htmlFile}`);
      say(
        `Done in ${elapsed()}. The database stays in ${dataDir}: try \`reconciler report --data-dir ${dataDir}\`.`,
      );
      return {
        dataDir,
        ledgerFile,
        htmlFile,
        sync,
        match,
        checks,
        unexpected,
        seconds: (Date.now() - t0) / 1000,
      };
    } finally {
      await database.close();
    }
  } finally {
    await sandbox.close();
  }
}
