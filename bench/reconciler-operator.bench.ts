/**
 * The operator scenario of issue 37, through the paths an operator uses: the sandbox generates
 * card transactions (500,000 on 4,000 cards over 30 days by default); the merchant's ledger is
 * written from the sandbox's state and dropped in the ledger folder (RECONCILER_LEDGER_DIR);
 * `reconciler run` twice (the cycle the CLI runs: ledger folder in, sync over HTTP, match);
 * then a day's changes — 10,000 new card transactions generated, 500 pending authorizations
 * settled through the sandbox's admin route, the ledger written again with the new bookings
 * and 1,000 amounts changed by 0.01, dropped again under its name — and `reconciler run` once
 * more. The third run's match must be incremental; its duration (`match_runs.duration_ms`) is
 * compared with the first run's. Then `reconciler run --no-sync --full --as-of <the third run's>` checks the incremental
 * result: the same figures, and the 1,000 corrections each an open amount_mismatch break.
 *
 * Needs DATABASE_URL (a throwaway database reconciler_bench_… is created on it and dropped;
 * RECONCILER_OPERATOR_DB_PREFIX changes the prefix; RECONCILER_OPERATOR_KEEP=1 keeps it and
 * prints its host:port/name, without credentials, for EXPLAIN and for reconciler-replay.bench.ts).
 * RECONCILER_OPERATOR_TIMINGS=1 prints every statement's time of the first and third runs.
 * RECONCILER_OPERATOR_SIZES
 * (default 500000) lists the sizes, comma-separated (cards: one per 125 transactions).
 * RECONCILER_OPERATOR_MIX (default 10000,500,1000) changes the day's mix: new card transactions,
 * authorizations settled, ledger amounts corrected.
 * RECONCILER_OPERATOR_RPS (default 100000) is the reconciler's RECONCILER_RPS for the runs: the
 * default 20 requests/s would spend about 4 minutes per 500,000 records on the rate cap alone.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { commandFlags, openConfiguredDatabase } from "../apps/reconciler/src/cli/command-support";
import { MATCH_FLAGS, matchOptionsOf } from "../apps/reconciler/src/cli/match-flags";
import { parseArgs, SWITCH } from "../apps/reconciler/src/cli/parse-args";
import { loadConfig } from "../apps/reconciler/src/config/load-config";
import type { ReconcilerConfig } from "../apps/reconciler/src/config/reconciler-config";
import { cycleExitCode, cycleSummaryLine } from "../apps/reconciler/src/cycle/cycle-summary";
import { runCycle } from "../apps/reconciler/src/cycle/run-cycle";
import { queryText } from "../apps/reconciler/src/db/query-rows";
import { describeDatabaseUrl } from "../apps/reconciler/src/db/reach-database";
import { createScratchDatabase } from "../apps/reconciler/src/db/scratch-database";
import type { LedgerEntry } from "../apps/reconciler/src/ledger/ledger-row";
import type { MatchRunResult } from "../apps/reconciler/src/match/run-match";
import { createSyncContext } from "../apps/reconciler/src/sync/sync-context";
import { ledgerCsv, writeLedger } from "../apps/reconciler/src/testing/write-ledger";
import { type GroundTruth, issuingRecords } from "../packages/sandbox/src/ledger/ground-truth";
import { type RunningSandbox, startSandbox } from "../packages/sandbox/src/start-sandbox";
import { benchSetting, postgresServer, statementSummary } from "./harness";

const DAY = 86_400_000;

const DAYS = 30;
const SEED = 1;
/** A day's changes: new card transactions, pending authorizations settled, amounts corrected. */
interface Mix {
  newTransactions: number;
  settled: number;
  corrected: number;
}

/** The issue's mix, unless RECONCILER_OPERATOR_MIX names another ("new,settled,corrected"). */
function changeMix(): Mix {
  const text = benchSetting("RECONCILER_OPERATOR_MIX") ?? "10000,500,1000";
  const [newTransactions, settled, corrected, ...rest] = text.split(",").map(Number);
  const mix = { newTransactions, settled, corrected } as Mix;
  if (rest.length > 0 || !Object.values(mix).every((n) => Number.isInteger(n) && n >= 1))
    throw new Error(
      "RECONCILER_OPERATOR_MIX: three whole numbers ≥ 1, comma-separated: new card transactions, authorizations settled, amounts corrected",
    );
  return mix;
}

/** The sandbox's ground truth, read in process (as the demo does): no 300 MB JSON round trip. */
function groundTruth(sandbox: RunningSandbox, now: number): GroundTruth {
  return {
    clock: { now },
    ledger: { transactions: sandbox.runtime().ledger.transactions },
    subMerchantLedgers: sandbox.runtime().ledgers.subMerchants(),
    areas: Object.fromEntries(sandbox.areas().map((a) => [a.name, a.dump()])),
  };
}

async function admin(sandbox: RunningSandbox, path: string, body: unknown): Promise<Response> {
  return fetch(`${sandbox.url}/__sandbox${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/**
 * Drops `csv` in the ledger folder as `name`, dated a minute back: a file the producer finished
 * a while ago, which the folder source takes at once (it waits for files changed in the last 5 s).
 */
async function drop(dir: string, name: string, csv: string): Promise<void> {
  const path = join(dir, name);
  await writeFile(path, csv, "utf8");
  const past = new Date(Date.now() - 60_000);
  await utimes(path, past, past);
}

/** `amount` (a decimal with two places) plus 0.01. */
function plusCent(amount: string): string {
  const cents = BigInt(amount.replace(".", "")) + 1n;
  const sign = cents < 0n ? "-" : "";
  const abs = (cents < 0n ? -cents : cents).toString().padStart(3, "0");
  return `${sign}${abs.slice(0, -2)}.${abs.slice(-2)}`;
}

interface Cycle {
  match: MatchRunResult;
  /** match_runs.duration_ms of the run. */
  storedMs: number;
  code: number;
  totalMs: number;
  syncMs: number;
  ledgerMs: number;
  /** The match run's as_of (ISO). */
  asOf: string;
}

/** One `reconciler run` (or `run --no-sync <flags>`): the cycle the CLI runs, its summary line printed. */
async function reconcilerRun(
  config: ReconcilerConfig,
  label: string,
  flags: string[] = [],
): Promise<Cycle> {
  // The flags as `reconciler run` reads them (run.ts).
  const parsed = commandFlags(parseArgs(flags), { ...MATCH_FLAGS, "no-sync": SWITCH });
  const database = await openConfiguredDatabase(config);
  try {
    const logs: string[] = [];
    const result = await runCycle(database.db, config, {
      sync: parsed["no-sync"]
        ? undefined
        : createSyncContext(config, database.db, { log: (line) => logs.push(line) }),
      match: matchOptionsOf(parsed),
    });
    const code = cycleExitCode(result);
    console.log(
      `${["reconciler run", ...flags].join(" ")} (${label}): ${cycleSummaryLine(result, code)}`,
    );
    const match = result.match;
    if (match === "skipped" || "error" in match)
      throw new Error(
        `${label}: no match (${JSON.stringify(match)}); log: ${logs.slice(-20).join("\n")}`,
      );
    const [row] = await queryText<{ duration_ms: number; as_of: string }>(
      database.db,
      `SELECT duration_ms, to_char(as_of AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS as_of
        FROM match_runs WHERE id = '${match.runId}'`,
    );
    return {
      match,
      storedMs: Number(row?.duration_ms),
      asOf: String(row?.as_of),
      code,
      totalMs: result.durationsMs.total,
      syncMs: result.durationsMs.sync,
      ledgerMs: result.durationsMs.ledger,
    };
  } finally {
    await database.close();
  }
}

const modeOf = (m: MatchRunResult) =>
  m.reusedRunId ? "reused" : m.incremental ? "incremental" : "full";

interface Figures {
  size: number;
  firstMs: number;
  secondMs: number;
  thirdMs: number;
  scope: number;
  secondMode: string;
}

async function scenario(server: string, size: number, mix: Mix): Promise<Figures> {
  const cards = Math.max(20, Math.round(size / 125));
  const rps = benchSetting("RECONCILER_OPERATOR_RPS") ?? "100000";
  const sandbox = await startSandbox({ timestampSkewMs: 366 * DAY });
  const scratch = await createScratchDatabase(
    server,
    benchSetting("RECONCILER_OPERATOR_DB_PREFIX") ?? "reconciler_bench",
  );
  const ledgerDir = mkdtempSync(join(tmpdir(), "reconciler-operator-"));
  try {
    // The sandbox's clock frozen a minute behind this machine's: every record is in the sync's
    // past, and nothing moves on its own (later generated steps wait on the frozen clock).
    const now = Math.floor((Date.now() - 60_000) / 1000) * 1000;
    await sandbox.admin.freezeClock(now);
    let t0 = performance.now();
    const generated = await admin(sandbox, "/issuing/generate", {
      seed: SEED,
      cards,
      cardTransactions: size,
      days: DAYS,
    });
    if (!generated.ok)
      throw new Error(`generate: HTTP ${generated.status} ${await generated.text()}`);
    const truth = groundTruth(sandbox, now);
    const first = writeLedger(truth, { seed: SEED, asOf: now });
    // The records the first file was written from (by id: the dump's objects may change later).
    const firstRecords = issuingRecords(truth);
    const firstIds = {
      txns: new Set(firstRecords.cardTransactions.map((t) => t.txnOrderNo)),
      ops: new Set(firstRecords.operateRecords.map((o) => o.operateRecordId)),
      postings: new Set(truth.ledger.transactions.map((a) => a.acntTxnId)),
    };
    await drop(ledgerDir, "ledger.csv", first.csv);
    console.log(
      `sandbox: ${size.toLocaleString("en-US")} card transactions on ${cards.toLocaleString("en-US")} cards over ${DAYS} days generated, ledger of ${first.entries.length.toLocaleString("en-US")} entries written and dropped in the ledger folder (${((performance.now() - t0) / 1000).toFixed(1)} s); database ${describeDatabaseUrl(scratch.url)}`,
    );
    const config = loadConfig({
      DATABASE_URL: scratch.url,
      MERCHANTKIT_ENVIRONMENT: sandbox.url,
      ISSUING_API_KEY: "sandbox-issuing-api-key",
      ACCOUNT_API_KEY: "sandbox-account-api-key",
      PAYOUT_SECRET_KEY: "sandbox-secret-key",
      MERCHANT_NO: "M1000001",
      RECONCILER_START: new Date(now - (DAYS + 1) * DAY).toISOString(),
      RECONCILER_LEDGER_DIR: ledgerDir,
      RECONCILER_RPS: rps,
    });
    console.log(
      `settings: RECONCILER_RPS=${rps} (the rate cap raised from its default 20 requests/s, so the sync of ${size.toLocaleString("en-US")} records is not 4+ minutes of waiting on it), every other setting its default (window 1d, lookback 3d, concurrency 4)`,
    );

    const run1 = await reconcilerRun(config, "first");
    const run2 = await reconcilerRun(config, "second, nothing changed");

    // A day's changes (the issue's mix unless RECONCILER_OPERATOR_MIX): new card transactions
    // (on new cards) in the last day.
    t0 = performance.now();
    const more = await admin(sandbox, "/issuing/generate", {
      seed: SEED + 1,
      cards: Math.max(20, Math.round(mix.newTransactions / 125)),
      cardTransactions: mix.newTransactions,
      days: 1,
    });
    if (!more.ok) throw new Error(`generate: HTTP ${more.status} ${await more.text()}`);
    // Pending authorizations settled (500 in the issue's mix) through the admin route, the
    // latest first (read from the reconciler's own table, as an operator would find them); a
    // status change is read by the sync while within the lookback, so they are taken from the
    // last 3 days.
    const operator = await openConfiguredDatabase(config);
    let pending: { txn_order_no: string; transaction_time: string }[];
    let broken: Set<string>;
    try {
      pending = await queryText(
        operator.db,
        `SELECT txn_order_no, transaction_time::text AS transaction_time FROM card_transactions
          WHERE txn_type = 'AUTHORIZATION' AND txn_status = 'P'
          ORDER BY transaction_time DESC, txn_order_no LIMIT ${mix.settled * 2}`,
      );
      // The entries a correction is made to: ones that matched (no break names them).
      broken = new Set(
        (
          await queryText<{ entry_id: string }>(
            operator.db,
            "SELECT DISTINCT entry_id FROM breaks WHERE entry_id IS NOT NULL",
          )
        ).map((b) => b.entry_id),
      );
    } finally {
      await operator.close();
    }
    let settled = 0;
    let refused = 0;
    let oldest = "";
    for (const p of pending) {
      if (settled === mix.settled) break;
      const res = await admin(sandbox, `/issuing/transactions/${p.txn_order_no}/settle`, {});
      if (res.ok) {
        settled++;
        oldest = p.transaction_time;
      } else refused++;
      await res.arrayBuffer();
    }
    // A small history holds fewer pending authorizations than that: every one is settled.
    if (settled < Math.min(mix.settled, pending.length))
      throw new Error(`settled ${settled} of ${mix.settled} (${refused} refused)`);
    // The ledger goes on: the first file's lines as they were, then the bookings of the records
    // that are new since (the day's transactions, the clearings the settles made, the new cards'
    // operations and postings), written from the sandbox's state by the same writer under new
    // ids. Then some of the old amounts (1,000 in the issue's mix) corrected by 0.01.
    const all = groundTruth(sandbox, now);
    const { cardTransactions, operateRecords } = issuingRecords(all);
    const fresh: GroundTruth = {
      ...all,
      ledger: {
        transactions: all.ledger.transactions.filter((a) => !firstIds.postings.has(a.acntTxnId)),
      },
      areas: {
        ...all.areas,
        issuing: {
          ...all.areas.issuing,
          cardTransactions: cardTransactions.filter((t) => !firstIds.txns.has(t.txnOrderNo)),
          operateRecords: operateRecords.filter((o) => !firstIds.ops.has(o.operateRecordId)),
        },
      },
    };
    const second = writeLedger(fresh, { seed: SEED + 1, asOf: now, discrepancies: {} });
    const injectedRefs = new Set(first.injected.map((d) => d.providerRef).filter(Boolean));
    const injectedEntries = new Set(first.injected.map((d) => d.entryId).filter(Boolean));
    const refCount = new Map<string, number>();
    for (const e of first.entries)
      refCount.set(e.providerRef, (refCount.get(e.providerRef) ?? 0) + 1);
    const entries: LedgerEntry[] = first.entries.map((e) => ({ ...e }));
    const candidates = entries.filter(
      (e) =>
        e.kind === "card_transaction" &&
        !e.feeType &&
        /^-?\d+\.\d{2}$/.test(e.amount) &&
        refCount.get(e.providerRef) === 1 &&
        !injectedRefs.has(e.providerRef) &&
        !injectedEntries.has(e.entryId) &&
        !broken.has(e.entryId),
    );
    const step = Math.floor(candidates.length / mix.corrected);
    const corrected: string[] = [];
    for (let i = 0; i < mix.corrected; i++) {
      const e = candidates[i * step] as LedgerEntry;
      e.amount = plusCent(e.amount);
      corrected.push(e.entryId);
    }
    for (const [i, e] of second.entries.entries())
      entries.push({ ...e, entryId: `N${String(i + 1).padStart(6, "0")}` });
    await drop(ledgerDir, "ledger.csv", ledgerCsv(entries));
    console.log(
      `changes: ${mix.newTransactions.toLocaleString("en-US")} new card transactions generated; ${settled} pending authorizations settled (POST /__sandbox/issuing/transactions/:txnOrderNo/settle; ${refused} refused; the oldest from ${oldest}); ledger written again and dropped as ledger.csv: ${second.entries.length.toLocaleString("en-US")} entries appended for the new records, ${mix.corrected.toLocaleString("en-US")} amounts changed by 0.01 (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
    );

    const run3 = await reconcilerRun(config, "third, after the changes");
    // Is the incremental answer right? The corrections are open amount_mismatch breaks,
    // and a full rerun (no sync, nothing changed since) gives the same figures.
    const check = await openConfiguredDatabase(config);
    let byClass: { class: string; n: string }[];
    try {
      byClass = await queryText(
        check.db,
        `SELECT class, count(*) AS n FROM breaks WHERE status = 'open'
          AND entry_id IN (${corrected.map((id) => `'${id}'`).join(",")}) GROUP BY class ORDER BY class`,
      );
    } finally {
      await check.close();
    }
    // As of the third run's time: an authorization turning stale in between is not a difference.
    const full = await reconcilerRun(config, "check: the same data matched in full", [
      "--no-sync",
      "--full",
      "--as-of",
      run3.asOf,
    ]);
    const { newBreaks, resolvedBreaks, ...afterChanges } = run3.match.stats;
    const { newBreaks: n2, resolvedBreaks: r2, ...afterFull } = full.match.stats;
    const same = JSON.stringify(afterChanges) === JSON.stringify(afterFull) && n2 === 0 && r2 === 0;
    const mismatches = Number(byClass.find((c) => c.class === "amount_mismatch")?.n ?? 0);

    const ratio3 = run3.storedMs / run1.storedMs;
    const ratio2 = run2.storedMs / run1.storedMs;
    console.log(
      `operator scenario at ${size.toLocaleString("en-US")} card transactions (match_runs.duration_ms):\n` +
        `  first run   match ${run1.storedMs} ms (mode ${modeOf(run1.match)}; cycle ${run1.totalMs} ms: ledger ${run1.ledgerMs} ms, sync ${run1.syncMs} ms; verdict ${run1.match.verdict}, open breaks ${run1.match.stats.openBreaks} ${JSON.stringify(run1.match.stats.breaksByClass)})\n` +
        `  second run  match ${run2.storedMs} ms (mode ${modeOf(run2.match)}, scope records ${run2.match.scopeRecords ?? "-"}; cycle ${run2.totalMs} ms, sync ${run2.syncMs} ms): ${(100 * ratio2).toFixed(1)} % of the first\n` +
        `  third run   match ${run3.storedMs} ms (mode ${modeOf(run3.match)}, scope records ${run3.match.scopeRecords}; cycle ${run3.totalMs} ms: ledger ${run3.ledgerMs} ms, sync ${run3.syncMs} ms; ${newBreaks} new, ${resolvedBreaks} resolved breaks; open breaks ${run3.match.stats.openBreaks} ${JSON.stringify(run3.match.stats.breaksByClass)}): ${(100 * ratio3).toFixed(1)} % of the first (goal ≤ 10 %)\n` +
        `  check       --full rerun match ${full.storedMs} ms: ${same ? "the same figures as the incremental run" : `DIFFERENT: incremental ${JSON.stringify(afterChanges)} vs full ${JSON.stringify(afterFull)} (${n2} new, ${r2} resolved)`}; the ${mix.corrected} corrected entries: ${JSON.stringify(Object.fromEntries(byClass.map((c) => [c.class, Number(c.n)])))} open breaks`,
    );
    for (const [which, r] of [
      ["first", run1],
      ["third", run3],
    ] as const) {
      const { inStatements, slowest } = statementSummary(r.match.timings, 10);
      console.log(
        `  slowest statements of the ${which} run (${inStatements} of ${r.match.durationMs} ms in ${r.match.timings.length} statements): ${slowest}`,
      );
    }
    // What the changes did to the breaks, class by class, against the second run: the
    // corrections are 1,000 more amount_mismatch; only time moves the others (an authorization
    // turning stale while the scenario runs).
    const before = run2.match.stats.breaksByClass as Record<string, number>;
    const after = run3.match.stats.breaksByClass as Record<string, number>;
    const deltas = Object.fromEntries(
      [...new Set([...Object.keys(before), ...Object.keys(after)])]
        .map((c) => [c, (after[c] ?? 0) - (before[c] ?? 0)] as const)
        .filter(([, d]) => d !== 0),
    );
    console.log(
      `  open breaks after the changes, by class, against the second run: ${JSON.stringify(deltas)}`,
    );
    if (benchSetting("RECONCILER_OPERATOR_TIMINGS"))
      for (const [which, r] of [
        ["first", run1],
        ["third", run3],
      ] as const)
        console.log(`  timings of the ${which} run: ${JSON.stringify(r.match.timings)}`);
    // Checked after the figures are printed, so that a failed check still shows them.
    const problems: string[] = [];
    if (!run3.match.incremental)
      problems.push(`the third run matched in mode ${modeOf(run3.match)}, not incremental`);
    if (!same) problems.push("the incremental run and the full rerun differ");
    const unexpected = Object.entries(deltas).filter(
      ([c, d]) => c !== "stale_authorization" && !(c === "amount_mismatch" && d === mix.corrected),
    );
    if (
      mismatches !== mix.corrected ||
      unexpected.length > 0 ||
      deltas.amount_mismatch !== mix.corrected
    )
      problems.push(
        `${mismatches} of the ${mix.corrected} corrected entries are open amount_mismatch breaks; open breaks changed by class: ${JSON.stringify(deltas)}`,
      );
    if (problems.length > 0) throw new Error(problems.join("; "));
    return {
      size,
      firstMs: run1.storedMs,
      secondMs: run2.storedMs,
      thirdMs: run3.storedMs,
      scope: run3.match.scopeRecords ?? 0,
      secondMode: modeOf(run2.match),
    };
  } finally {
    await sandbox.close();
    rmSync(ledgerDir, { recursive: true, force: true });
    if (benchSetting("RECONCILER_OPERATOR_KEEP"))
      console.log(`kept ${describeDatabaseUrl(scratch.url)}`);
    else await scratch.drop();
  }
}

export async function run(): Promise<void> {
  const server = postgresServer("the operator scenario");
  if (!server) return;
  const sizes = (benchSetting("RECONCILER_OPERATOR_SIZES") ?? "500000").split(",").map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n < 10_000))
    throw new Error("RECONCILER_OPERATOR_SIZES: integers ≥ 10000, comma-separated");
  const figures: Figures[] = [];
  const mix = changeMix();
  for (const size of sizes) figures.push(await scenario(server, size, mix));
  console.log("\n## operator scenario: match_runs.duration_ms");
  console.log("card txns   first run  second run  of first  third run  of first  scope records");
  for (const f of figures)
    console.log(
      `${f.size.toLocaleString("en-US").padStart(9)}  ${String(f.firstMs).padStart(7)} ms  ${String(f.secondMs).padStart(7)} ms  ${((100 * f.secondMs) / f.firstMs).toFixed(1).padStart(6)} %  ${String(f.thirdMs).padStart(6)} ms  ${((100 * f.thirdMs) / f.firstMs).toFixed(1).padStart(6)} %  ${f.scope.toLocaleString("en-US").padStart(13)}`,
    );
}
