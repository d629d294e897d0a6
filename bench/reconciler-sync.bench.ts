/**
 * The reconciler's sync end to end: card transactions generated in a sandbox running in
 * ANOTHER process, paged over HTTP (100 per page, windows fetched concurrently) and written
 * with commitWindow (upserts + versions + watermark, one transaction per window), next to a
 * plain COPY of the same rows into a same-shaped table (the physical limit of writing them).
 * Two references beside it: a COPY of everything the sync writes (rows, versions, change log),
 * and the sync's upsert statement alone, fed the same batches from SQL in one backend.
 *
 * Needs DATABASE_URL for the server figure (a throwaway database is created and dropped);
 * without it only PGlite is measured. RECONCILER_SYNC_BENCH_ROWS (default 1,000,000) sets how
 * many card transactions the sandbox generates; RECONCILER_SYNC_BENCH_PGLITE_DAYS (default 3)
 * how many of its 30 days the PGlite run syncs; RECONCILER_SYNC_BENCH_CONCURRENCY (default 4)
 * windows in flight; RECONCILER_SYNC_BENCH_WINDOW (default 6h) the window size.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { loadConfig } from "../apps/reconciler/src/config/load-config";
import { openDatabase } from "../apps/reconciler/src/db/connect";
import { copyField, copyLine, copyRows } from "../apps/reconciler/src/db/copy-rows";
import type { Db } from "../apps/reconciler/src/db/database";
import { queryText } from "../apps/reconciler/src/db/query-rows";
import { createScratchDatabase } from "../apps/reconciler/src/db/scratch-database";
import { cardTransactionSpec } from "../apps/reconciler/src/store/card-transactions";
import { DEFAULT_BATCH_SIZE } from "../apps/reconciler/src/store/upsert-batch";
import { upsertSqlText } from "../apps/reconciler/src/store/upsert-sql";
import { runSync } from "../apps/reconciler/src/sync/run-sync";
import { createSyncContext } from "../apps/reconciler/src/sync/sync-context";
import { type CaseResult, printTable } from "./harness";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const DAY = 86_400_000;
const DAYS = 30;

function numberFrom(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

function textFrom(name: string, fallback: string): string {
  return process.env[name] ?? fallback;
}

/** The sandbox bin from source, in its own process; resolves with its origin. */
async function startSandboxProcess(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [
      "--conditions=@merchantkit/source",
      "--import",
      "tsx",
      join(ROOT, "packages/sandbox/src/bin.ts"),
      "--port",
      "0",
    ],
    { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let text = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(text);
      if (m?.[1]) resolve(m[1]);
    });
    child.once("exit", (code) => reject(new Error(`sandbox exited (${code}) before listening`)));
  });
  return { url, child };
}

async function admin(url: string, path: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${url}/__sandbox${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

/** The table's rows as COPY text chunks (read before the clock starts: only COPY is timed). */
async function copyTextOf(db: Db, table: string, key: string): Promise<CopyText> {
  const columns = (
    await queryText<{ column_name: string }>(
      db,
      `SELECT column_name FROM information_schema.columns WHERE table_name = '${table}' ORDER BY ordinal_position`,
    )
  ).map((c) => c.column_name);
  const chunks: string[] = [];
  let last = "";
  for (;;) {
    const rows = await queryText<Record<string, string | null>>(
      db,
      `SELECT ${columns.map((c) => `${c}::text AS ${c}`).join(", ")} FROM ${table}
        WHERE ${key} > '${last}' ORDER BY ${key} LIMIT 20000`,
    );
    if (rows.length === 0) break;
    chunks.push(rows.map((r) => copyLine(columns.map((c) => copyField(r[c])))).join(""));
    last = rows[rows.length - 1]?.[key] ?? last;
  }
  return { columns, chunks };
}

/**
 * What a sync must write besides the rows, COPYed: a version row per record
 * (card_transaction_versions, the history finance reads) and, through the same statement
 * trigger as the real table's, the match change log (match_changes, which incremental matching
 * reads). Into copies of both tables, from what the sync stored (`main`: the rows as COPY
 * text); answers the time of the two COPYs. The plain COPY above writes the rows alone: the
 * sync's ratio against it also counts writes no writer of these tables can skip.
 */
async function copyWhatSyncWrites(db: Db, rows: number, main: CopyText): Promise<number> {
  for (const statement of [
    "CREATE TABLE card_transactions_logged (LIKE card_transactions INCLUDING ALL)",
    `CREATE TRIGGER card_transactions_logged_inserted AFTER INSERT ON card_transactions_logged
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
      EXECUTE FUNCTION match_changes_log('key', 'txn_order_no')`,
    "CREATE TABLE card_transaction_versions_copy (LIKE card_transaction_versions INCLUDING ALL)",
  ])
    await queryText(db, statement);
  // One version per record here (every record inserted once), so the key pages them.
  const versions = await copyTextOf(db, "card_transaction_versions", "txn_order_no");
  const t0 = performance.now();
  await copyRows(db, { table: "card_transactions_logged", ...lines(main) });
  await copyRows(db, { table: "card_transaction_versions_copy", ...lines(versions) });
  const ms = performance.now() - t0;
  const [logged] = await queryText<{ n: string }>(
    db,
    "SELECT count(*) AS n FROM card_transaction_versions_copy",
  );
  if (Number(logged?.n) !== rows) throw new Error(`COPY wrote ${logged?.n} of ${rows} versions`);
  return ms;
}

/**
 * The sync's upsert statement alone: the stored rows as the sync's batches (5,000 records of
 * `{"h": hash, "r": record}`, built in SQL before the clock starts) run through the very
 * statement commitWindow runs, in one backend, into empty copies of the tables it writes (the
 * change-log trigger included). No HTTP, no client work: what the database itself spends on the
 * sync's writes, next to the COPYs. Answers the time of the statements.
 */
async function upsertStatementAlone(db: Db, rows: number): Promise<number> {
  const batches = Math.ceil(rows / DEFAULT_BATCH_SIZE);
  for (const statement of [
    "CREATE SCHEMA statement_alone",
    `CREATE TABLE statement_alone.batches AS
       SELECT g AS i, jsonb_agg(jsonb_build_object('h', raw_hash, 'r', raw))::text AS batch
       FROM (SELECT raw_hash, raw,
               (row_number() OVER (ORDER BY transaction_time, txn_order_no) - 1) / ${DEFAULT_BATCH_SIZE} AS g
             FROM card_transactions) x
       GROUP BY g`,
    ...["card_transactions", "card_transaction_versions", "match_changes"].map(
      (t) => `CREATE TABLE statement_alone.${t} (LIKE public.${t} INCLUDING ALL)`,
    ),
    `CREATE TRIGGER card_transactions_inserted AFTER INSERT ON statement_alone.card_transactions
      REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
      EXECUTE FUNCTION match_changes_log('key', 'txn_order_no')`,
  ])
    await queryText(db, statement);
  // EXECUTE … USING passes each batch as the statement's $1 and the source as $2, as the driver
  // does; search_path makes its table names (and the trigger's) the copies.
  const statement = upsertSqlText(cardTransactionSpec);
  const t0 = performance.now();
  await queryText(
    db,
    `DO $bench$
     DECLARE b record; r record;
     BEGIN
       SET LOCAL search_path = statement_alone, public;
       FOR b IN SELECT batch FROM statement_alone.batches ORDER BY i LOOP
         EXECUTE $statement$${statement}$statement$ INTO r USING b.batch, 'sync';
       END LOOP;
     END $bench$`,
  );
  const ms = performance.now() - t0;
  const [written] = await queryText<{ n: string }>(
    db,
    "SELECT count(*) AS n FROM statement_alone.card_transaction_versions",
  );
  if (Number(written?.n) !== rows)
    throw new Error(`the statement wrote ${written?.n} of ${rows} versions (${batches} batches)`);
  return ms;
}

interface CopyText {
  columns: string[];
  chunks: string[];
}

const lines = ({ columns, chunks }: CopyText) => ({
  columns,
  lines: chunks,
});

async function measure(
  db: Db,
  label: string,
  url: string,
  range: { from: Date; to: Date } | undefined,
): Promise<void> {
  const config = loadConfig({
    MERCHANTKIT_ENVIRONMENT: url,
    ISSUING_API_KEY: "sandbox-issuing-api-key",
    ACCOUNT_API_KEY: "sandbox-account-api-key",
    PAYOUT_SECRET_KEY: "sandbox-secret-key",
    MERCHANT_NO: "M1000001",
    RECONCILER_START: `${DAYS + 1}d`,
    RECONCILER_WINDOW: textFrom("RECONCILER_SYNC_BENCH_WINDOW", "6h"),
    RECONCILER_CONCURRENCY: String(numberFrom("RECONCILER_SYNC_BENCH_CONCURRENCY", 4)),
    RECONCILER_RPS: "100000",
  });
  const ctx = createSyncContext(config, db, { log: () => {} });
  const t0 = performance.now();
  const summary = await runSync(ctx, { streams: ["card_transactions"], ...range });
  const syncMs = performance.now() - t0;
  const card = summary.streams.card_transactions;
  if (summary.outcome !== "ok" || !card) throw new Error(`sync: ${JSON.stringify(summary)}`);
  const rows = card.inserted;

  await queryText(db, "CREATE TABLE card_transactions_copy (LIKE card_transactions INCLUDING ALL)");
  const { columns, chunks } = await copyTextOf(db, "card_transactions", "txn_order_no");
  const t1 = performance.now();
  await copyRows(db, { table: "card_transactions_copy", columns, lines: chunks });
  const copyMs = performance.now() - t1;
  const [copied] = await queryText<{ n: string }>(
    db,
    "SELECT count(*) AS n FROM card_transactions_copy",
  );
  if (Number(copied?.n) !== rows) throw new Error(`COPY wrote ${copied?.n} of ${rows} rows`);
  const written = await copyWhatSyncWrites(db, rows, { columns, chunks });
  const statementMs = await upsertStatementAlone(db, rows);

  const result = (name: string, ms: number): CaseResult => ({
    name,
    opsPerSec: (rows / ms) * 1000,
    nsPerOp: (ms * 1e6) / rows,
    ratio: ms / copyMs,
  });
  console.log(
    `${label}: ${rows.toLocaleString("en-US")} card transactions, ${card.windows} windows of ` +
      `${config.windowMs / 3_600_000} h, ${card.pages.toLocaleString("en-US")} pages, ` +
      `${config.concurrency} windows at once; sync ${(syncMs / 1000).toFixed(1)} s ` +
      `(${Math.round((rows / syncMs) * 1000).toLocaleString("en-US")} records/s), ` +
      `COPY ${(copyMs / 1000).toFixed(1)} s`,
  );
  printTable(`${label}: sync ${rows.toLocaleString("en-US")} card transactions`, "record", [
    result("COPY of the same rows into a same-shaped table (baseline)", copyMs),
    result("COPY of what the sync writes: rows, version rows, change log (reference)", written),
    result(
      "the sync's upsert statement alone, batches from SQL, one backend (reference)",
      statementMs,
    ),
    result("reconciler sync: HTTP pages → commitWindow", syncMs),
  ]);
}

export async function run(): Promise<void> {
  const rows = numberFrom("RECONCILER_SYNC_BENCH_ROWS", 1_000_000);
  const sandbox = await startSandboxProcess();
  try {
    // The clock frozen an hour back, so every generated record is in the sync's past; account
    // calls carry real-time x-timestamps, hence the wide skew.
    const now = Math.floor((Date.now() - 3_600_000) / 1000) * 1000;
    await admin(sandbox.url, "/config", { timestampSkewMs: 366 * DAY });
    await admin(sandbox.url, "/clock/freeze", { at: now });
    const g0 = performance.now();
    await admin(sandbox.url, "/issuing/generate", {
      seed: 1,
      cards: Math.max(20, Math.round(rows / 500)),
      cardTransactions: rows,
      days: DAYS,
    });
    console.log(
      `sandbox (its own process): generated ${rows.toLocaleString("en-US")} card transactions over ${DAYS} days in ${((performance.now() - g0) / 1000).toFixed(1)} s`,
    );

    const server = process.env.DATABASE_URL;
    if (server) {
      const scratch = await createScratchDatabase(server, "reconciler_bench");
      try {
        const database = await openDatabase({ url: scratch.url });
        try {
          await measure(database.db, "Postgres server", sandbox.url, undefined);
        } finally {
          await database.close();
        }
      } finally {
        await scratch.drop();
      }
    } else {
      console.log(
        'DATABASE_URL is not set: skipping the Postgres server figure; start one with eval "$(bash scripts/start-postgres.sh)". Measuring PGlite only.',
      );
    }

    const days = numberFrom("RECONCILER_SYNC_BENCH_PGLITE_DAYS", 3);
    const pglite = await openDatabase({ dataDir: "memory://" });
    try {
      // The last `days` days of the generated period: a slice, so PGlite's figure stays quick.
      await measure(pglite.db, `PGlite (in memory, last ${days} of ${DAYS} days)`, sandbox.url, {
        from: new Date(now - days * DAY),
        to: new Date(now + 1000),
      });
    } finally {
      await pglite.close();
    }
  } finally {
    sandbox.child.kill("SIGTERM");
  }
}
