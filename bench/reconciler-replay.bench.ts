/**
 * The operator scenario's third run (reconciler-operator.bench.ts), replayed on copies of a
 * database that bench kept: the same statements over the same data, as often as asked, so that
 * two versions of the matcher can be compared on one database (run this from each checkout in
 * turns) and the machine's own spread is seen apart from the code's.
 *
 * Each replay copies the kept database (CREATE DATABASE … TEMPLATE), takes out what the third
 * cycle brought (provider records first seen and ledger entries imported since the second run
 * started), matches without it (not timed: the stored results are then those of the data before
 * the change), puts it back and logs again the rows that cycle updated (the settled
 * authorizations, the corrected amounts), and times `runMatch` as of the third run's time, as
 * the third run did. One difference: the updated rows are matched in their new state by the
 * untimed run already, so the replay meets their breaks stored (the 1,000 amount_mismatch
 * breaks the third run opened are upserted, not inserted).
 *
 * Needs DATABASE_URL (the server, whose credentials it connects with) and RECONCILER_REPLAY_DB:
 * the name of the database `RECONCILER_OPERATOR_KEEP=1 pnpm bench reconciler-operator` kept
 * there (the last part of what it prints, "kept host:port/reconciler_bench_…"); nothing
 * may be connected to it, DATABASE_URL must name another database of the server. Optional:
 * RECONCILER_REPLAY_RUNS (default 3). The copies are dropped; the kept database is not changed.
 * Prints each replay's match time against the kept first run's (`match_runs.duration_ms`).
 */
import { performance } from "node:perf_hooks";
import { openConfiguredDatabase } from "../apps/reconciler/src/cli/command-support";
import { loadConfig } from "../apps/reconciler/src/config/load-config";
import { openDatabase } from "../apps/reconciler/src/db/connect";
import { queryText } from "../apps/reconciler/src/db/query-rows";
import { createScratchDatabase } from "../apps/reconciler/src/db/scratch-database";
import { runMatch } from "../apps/reconciler/src/match/run-match";
import { benchSetting, median, postgresServer, statementSummary } from "./harness";

/**
 * The provider tables and the ledger: the column that says when a row came, and the one whose
 * change the run's change log records (a serviceId has no updated_at: it changes when revealed
 * again, fetched or its postings change).
 */
const CAME = [
  ["card_transactions", "first_seen_at", "updated_at"],
  ["operate_records", "first_seen_at", "updated_at"],
  ["account_transactions", "first_seen_at", "updated_at"],
  ["service_ids", "first_seen_at", "greatest(revealed_at, fetched_at, postings_changed_at)"],
  ["payouts", "first_seen_at", "updated_at"],
  ["ledger_entries", "imported_at", "updated_at"],
] as const;

interface KeptRuns {
  /** When the second run started: what came since is the third cycle's. */
  since: string;
  /** The third run's as_of. */
  asOf: string;
  firstMs: number;
  thirdMs: number;
}

async function keptRuns(url: string): Promise<KeptRuns> {
  // Read-only: the kept database stays as the operator bench left it.
  const database = await openDatabase({ url, readOnly: true });
  try {
    const runs = await queryText<{ started_at: string; as_of: string; duration_ms: number }>(
      database.db,
      `SELECT started_at::text AS started_at, as_of::text AS as_of, duration_ms
        FROM match_runs ORDER BY started_at LIMIT 3`,
    );
    const [first, second, third] = runs;
    if (!first || !second || !third)
      throw new Error(`${runs.length} match runs, not the operator scenario's three or more`);
    return {
      since: second.started_at,
      asOf: third.as_of,
      firstMs: Number(first.duration_ms),
      thirdMs: Number(third.duration_ms),
    };
  } finally {
    await database.close();
  }
}

/** One replay on a fresh copy of the kept database: the timed run's result. */
async function replay(server: string, kept: string, runs: KeptRuns) {
  const copy = await createScratchDatabase(server, "reconciler_replay", kept);
  try {
    const config = loadConfig({ DATABASE_URL: copy.url });
    const setup = await openConfiguredDatabase(config);
    const asOf = new Date(runs.asOf);
    try {
      const sql = (text: string) => queryText(setup.db, text);
      const since = `'${runs.since}'::timestamptz`;
      for (const [table, column] of CAME)
        await sql(
          `CREATE TABLE replay_${table} AS SELECT * FROM ${table} WHERE ${column} >= ${since}`,
        );
      await sql(`CREATE TABLE replay_operate_record_fees AS SELECT * FROM operate_record_fees
        WHERE operate_record_id IN (SELECT operate_record_id FROM replay_operate_records)`);
      await sql(`DELETE FROM operate_record_fees
        WHERE operate_record_id IN (SELECT operate_record_id FROM replay_operate_records)`);
      for (const [table, column] of CAME)
        await sql(`DELETE FROM ${table} WHERE ${column} >= ${since}`);
      await runMatch(setup.db, { asOf });
      for (const table of [...CAME.map(([t]) => t), "operate_record_fees"]) {
        await sql(`INSERT INTO ${table} SELECT * FROM replay_${table}`);
        await sql(`DROP TABLE replay_${table}`);
      }
      // Logged again by the update trigger (a row set to itself is a logged change).
      for (const [table, column, changed] of CAME)
        await sql(`UPDATE ${table} SET ${column} = ${column}
          WHERE ${changed} >= ${since} AND ${column} < ${since}`);
      await sql("CHECKPOINT");
    } finally {
      await setup.close();
    }
    const timed = await openConfiguredDatabase(config);
    try {
      const t0 = performance.now();
      const result = await runMatch(timed.db, { asOf });
      return { result, wallMs: performance.now() - t0 };
    } finally {
      await timed.close();
    }
  } finally {
    await copy.drop();
  }
}

const howOften = (n: number) => (n === 1 ? "once" : `${n} times`);

export async function run(): Promise<void> {
  const server = postgresServer("the replay of a kept operator scenario");
  if (!server) return;
  const name = benchSetting("RECONCILER_REPLAY_DB");
  if (!name) {
    console.log(
      "RECONCILER_REPLAY_DB is not set: it names a database on DATABASE_URL's server that `RECONCILER_OPERATOR_KEEP=1 pnpm bench reconciler-operator` kept (the last part of what it prints as `kept host:port/reconciler_bench_…`).",
    );
    return;
  }
  const count = Number(benchSetting("RECONCILER_REPLAY_RUNS") ?? 3);
  if (!Number.isInteger(count) || count < 1)
    throw new Error("RECONCILER_REPLAY_RUNS: a whole number ≥ 1");
  const kept = new URL(server);
  kept.pathname = `/${encodeURIComponent(name)}`;
  if (new URL(server).pathname === kept.pathname)
    throw new Error("DATABASE_URL names the kept database: a copy needs nobody connected to it");
  const runs = await keptRuns(kept.toString());
  const pct = (ms: number) => `${((100 * ms) / runs.firstMs).toFixed(1)} %`;
  console.log(
    `kept database ${name}: first match ${runs.firstMs} ms, third (incremental) ${runs.thirdMs} ms (${pct(runs.thirdMs)}); replaying the third run ${howOften(count)}, as of ${runs.asOf}`,
  );
  const times: number[] = [];
  for (let i = 1; i <= count; i++) {
    const { result, wallMs } = await replay(server, name, runs);
    if (!result.incremental) throw new Error(`replay ${i}: matched in full, not incrementally`);
    const { inStatements, slowest } = statementSummary(result.timings, 5);
    times.push(result.durationMs);
    console.log(
      `  replay ${i}: ${result.durationMs} ms (${pct(result.durationMs)} of the first match; wall ${wallMs.toFixed(0)} ms), scope records ${result.scopeRecords}, ${inStatements} ms in ${result.timings.length} statements; slowest: ${slowest}`,
    );
  }
  const middle = median(times);
  console.log(
    `\n## third run replayed ${howOften(count)}: ${Math.min(...times)}–${Math.max(...times)} ms, median ${middle} ms = ${pct(middle)} of the kept first match (${runs.firstMs} ms); the kept third run ${runs.thirdMs} ms = ${pct(runs.thirdMs)}`,
  );
}
