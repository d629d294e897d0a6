/**
 * The reconciler's matching: 1,000,000 provider records (settled clearings and refunds) against
 * 1,000,000 ledger entries on a Postgres server — every pass, the breaks and the writes of one
 * runMatch — next to one plain hash join of the same two tables on the same key (the floor: the
 * least any matcher must do). 0.3 % of entries carry a discrepancy (amount, missing on either
 * side, duplicate). A second run over the unchanged data reuses the first's results (a few
 * counts); a third, forced with `full`, shows what matching everything again costs.
 *
 * Needs DATABASE_URL (a throwaway database is created on it and dropped); the tables are filled
 * with COPY, not through HTTP. RECONCILER_MATCH_ROWS changes the row count (default 1,000,000).
 * The goal is a first run within 10 s at 1,000,000 rows.
 */
import { performance } from "node:perf_hooks";
import { openDatabase } from "../apps/reconciler/src/db/connect";
import { copyLine, copyRows } from "../apps/reconciler/src/db/copy-rows";
import type { Db } from "../apps/reconciler/src/db/database";
import { queryText } from "../apps/reconciler/src/db/query-rows";
import { describeDatabaseUrl } from "../apps/reconciler/src/db/reach-database";
import { createScratchDatabase } from "../apps/reconciler/src/db/scratch-database";
import { runMatch } from "../apps/reconciler/src/match/run-match";
import { collectScanningLoops } from "../apps/reconciler/src/testing/plan-loops";
import {
  benchSetting,
  type CaseResult,
  postgresServer,
  printTable,
  statementSummary,
} from "./harness";

const AS_OF = new Date("2026-06-01T00:00:00Z");
const START = Date.parse("2026-05-01T00:00:00Z");
const CHUNK = 10_000;
/** Rows a statement of the first run may examine per record, planned at the bench's size. */
const PLAN_K = 20;

/**
 * The time between two provider records: every record of a size (and of the day of changes
 * after it) falls in the month before AS_OF, so a larger history is denser, not longer (at
 * 2.5 s apart, 4M records reached past AS_OF and most breaks were still pending). Set by
 * measure() for its size.
 */
let stepMs = 2_500;

function amount(i: number): string {
  const cents = 300 + ((i * 7919) % 190_000);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

const txnNo = (i: number) => `T${String(100_000_000_000_000 + i)}`;
const authNo = (i: number) => `A${String(100_000_000_000_000 + i)}`;

/**
 * Authorization records still pending (P), one per 10 provider records, on the clearing's card
 * and a minute before it; the ledger books clearings, not authorizations, so they are holds: a
 * stale_authorization once older than 7 days.
 */
export function* authorizationLines(rows: number, from = 0): Generator<string> {
  let chunk = "";
  for (let i = from; i < from + rows; i++) {
    if (i % 10 !== 5) continue;
    const time = new Date(START + i * stepMs - 60_000).toISOString();
    const currency = i % 4 === 0 ? "EUR" : "USD";
    chunk += copyLine([
      authNo(i),
      cardOf(i),
      "AUTHORIZATION",
      "P",
      "\\N",
      "\\N",
      time,
      amount(i),
      currency,
      amount(i),
      currency,
      "\\N",
      "{}",
      "0",
      "1",
      "sync",
    ]);
    if (i % CHUNK === CHUNK - 5) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk) yield chunk;
}
const cardOf = (i: number) => String(1953712585351499776n + BigInt(i % 20_000));

export const CARD_COLUMNS = [
  "txn_order_no",
  "card_id",
  "txn_type",
  "txn_status",
  "origin_txn_order_no",
  "origin_txn_order_no_for_refund",
  "transaction_time",
  "card_amount",
  "card_currency",
  "settle_amount",
  "settle_currency",
  "settle_time",
  "raw",
  "raw_hash",
  "version",
  "source",
];

/** Provider record i: a settled clearing (1 in 20 a refund), USD or EUR, over a month. */
export function* cardLines(rows: number, from = 0): Generator<string> {
  let chunk = "";
  for (let i = from; i < from + rows; i++) {
    const time = new Date(START + i * stepMs).toISOString();
    const refund = i % 20 === 19;
    chunk += copyLine([
      txnNo(i),
      cardOf(i),
      refund ? "REFUND" : "CLEARING",
      "S",
      // Each clearing names its authorization (the pending ones below, 1 in 10; the others
      // were never sent, as most clearings' are not).
      refund ? `A${i}` : authNo(i),
      refund ? txnNo(i - 1) : "\\N",
      time,
      amount(i),
      i % 4 === 0 ? "EUR" : "USD",
      amount(i),
      i % 4 === 0 ? "EUR" : "USD",
      time,
      "{}",
      "0",
      "1",
      "sync",
    ]);
    if (i % CHUNK === CHUNK - 1) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk) yield chunk;
}

export const LEDGER_COLUMNS = [
  "entry_id",
  "kind",
  "provider_ref",
  "amount",
  "currency",
  "booked_at",
  "card_id",
];

/** Ledger entry i: the provider's record, but 1 in 1000 off by 0.01, missing, or booking i+1 a second time (each replaced by an entry the provider does not have, so the count stays the same). */
export function* ledgerLines(rows: number, from = 0): Generator<string> {
  let chunk = "";
  for (let i = from; i < from + rows; i++) {
    const booked = new Date(START + i * stepMs + 3_600_000).toISOString();
    const currency = i % 4 === 0 ? "EUR" : "USD";
    const sign = i % 20 === 19 ? "" : "-";
    const k = i % 1000;
    const line =
      k === 1
        ? [
            `L${i}`,
            "card_transaction",
            txnNo(i),
            `${sign}${amount(i)}1`,
            currency,
            booked,
            cardOf(i),
          ]
        : k === 2
          ? [`L${i}`, "card_transaction", `X${i}`, "-10.00", "USD", booked, "\\N"]
          : k === 3
            ? [
                `L${i}`,
                "card_transaction",
                txnNo(i + 1),
                `-${amount(i + 1)}`,
                (i + 1) % 4 === 0 ? "EUR" : "USD",
                booked,
                cardOf(i + 1),
              ]
            : [
                `L${i}`,
                "card_transaction",
                txnNo(i),
                `${sign}${amount(i)}`,
                currency,
                booked,
                cardOf(i),
              ];
    chunk += copyLine(line);
    if (i % CHUNK === CHUNK - 1) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk) yield chunk;
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

/** The plain hash join of the two tables on the key, every pair counted. */
function hashJoin(db: Db, parallel: boolean): Promise<{ n: string }[]> {
  return db.transaction(async (tx) => {
    await queryText(tx, "SET LOCAL enable_mergejoin = off");
    await queryText(tx, "SET LOCAL enable_nestloop = off");
    await queryText(tx, "SET LOCAL work_mem = '128MB'");
    if (!parallel) await queryText(tx, "SET LOCAL max_parallel_workers_per_gather = 0");
    return queryText<{ n: string }>(
      tx,
      "SELECT count(*) AS n FROM card_transactions c JOIN ledger_entries l ON l.provider_ref = c.txn_order_no",
    );
  });
}

interface Figures {
  rows: number;
  firstMs: number;
  unchangedMs: number;
  changedMs: number;
  floorMs: number;
  scope: number;
}

async function measure(db: Db, rows: number): Promise<Figures> {
  stepMs = Math.min(2_500, Math.floor((29 * 86_400_000) / (rows + 20_000)));
  const load = await timed(async () => {
    await copyRows(db, {
      table: "card_transactions",
      columns: CARD_COLUMNS,
      lines: cardLines(rows),
    });
    await copyRows(db, {
      table: "card_transactions",
      columns: CARD_COLUMNS,
      lines: authorizationLines(rows),
    });
    await copyRows(db, {
      table: "ledger_entries",
      columns: LEDGER_COLUMNS,
      lines: ledgerLines(rows),
    });
    for (const stream of ["card_transactions", "operate_records"])
      await queryText(
        db,
        `INSERT INTO sync_watermarks (stream, watermark) VALUES ('${stream}', '${AS_OF.toISOString()}')`,
      );
    // Vacuumed as autovacuum would after a load, so that it does not start on the two tables
    // in the middle of the timed runs (it did, and moved one join's time by a third).
    await queryText(db, "VACUUM ANALYZE");
  });
  // The floor: one hash join of the two tables on the key, every pair counted. Taken three
  // times and the median kept: one join's time moved by half between runs on one machine.
  const joins: { ms: number; value: { n: string }[] }[] = [];
  for (let i = 0; i < 3; i++) joins.push(await timed(() => hashJoin(db, true)));
  const floor = [...joins].sort((a, b) => a.ms - b.ms)[1] as (typeof joins)[number];
  // The same join in one process, for reference: Postgres plans the floor with parallel
  // workers where the machine has them, while a match run's statements cannot use any (a FULL
  // JOIN before Postgres 16, temporary tables, INSERT … SELECT). On two cores this moved the
  // floor, and every ratio against it, by half between machines.
  const serial = await timed(() => hashJoin(db, false));
  const first = await timed(() => runMatch(db, { asOf: AS_OF }));
  // Nothing changed: the run finds so and reuses the first run's results.
  const second = await timed(() => runMatch(db, { asOf: AS_OF }));
  if (second.value.reusedRunId !== first.value.runId)
    throw new Error("the rerun on unchanged data did not reuse the first run");
  // A day's changes: 10,000 new provider records and the 10,000 entries booking them, and
  // 1,000 clearings that turn out failed (their entries are then missing at the provider).
  const CHANGES = 10_000;
  await copyRows(db, {
    table: "card_transactions",
    columns: CARD_COLUMNS,
    lines: cardLines(CHANGES, rows),
  });
  await copyRows(db, {
    table: "ledger_entries",
    columns: LEDGER_COLUMNS,
    lines: ledgerLines(CHANGES, rows),
  });
  await copyRows(db, {
    table: "card_transactions",
    columns: CARD_COLUMNS,
    lines: authorizationLines(CHANGES, rows),
  });
  await queryText(
    db,
    `UPDATE card_transactions SET txn_status = 'F', version = version + 1, updated_at = now()
     WHERE txn_order_no IN (SELECT txn_order_no FROM card_transactions
       WHERE txn_type = 'CLEARING' ORDER BY txn_order_no LIMIT 1000 OFFSET 5000)`,
  );
  // 500 pending authorizations settle (their clearings, already stored, used them in full):
  // every pass reading authorizations and their clearings meets them, on 500 cards.
  await queryText(
    db,
    `UPDATE card_transactions SET txn_status = 'S', version = version + 1, updated_at = now()
     WHERE txn_order_no IN (SELECT txn_order_no FROM card_transactions
       WHERE txn_type = 'AUTHORIZATION' AND txn_status = 'P' ORDER BY txn_order_no LIMIT 500 OFFSET 1000)`,
  );
  // 1,000 ledger amounts corrected by a cent.
  await queryText(
    db,
    `UPDATE ledger_entries SET amount = amount + 0.01, updated_at = now()
     WHERE entry_id IN (SELECT entry_id FROM ledger_entries ORDER BY entry_id LIMIT 1000 OFFSET 20000)`,
  );
  const changed = await timed(() => runMatch(db, { asOf: AS_OF }));
  if (!changed.value.incremental) throw new Error("the rerun after changes matched everything");
  // The same rerun forced to match everything (`--full`): what it gives must be the same.
  const full = await timed(() => runMatch(db, { asOf: AS_OF, full: true }));
  const { newBreaks, resolvedBreaks, ...afterChanges } = changed.value.stats;
  const { newBreaks: n2, resolvedBreaks: r2, ...afterFull } = full.value.stats;
  if (JSON.stringify(afterChanges) !== JSON.stringify(afterFull) || n2 !== 0 || r2 !== 0)
    throw new Error(
      `incremental and full differ: ${JSON.stringify(afterChanges)} vs ${JSON.stringify(afterFull)} (${n2} new, ${r2} resolved)`,
    );
  // The first run's statements at this size, planned: match_pairs emptied as before a first
  // run and everything matched again, untimed, with EXPLAIN before each statement
  // (statement-plans.test.ts does the same on a small data set). A nested loop scanning a
  // table whole for each row beyond PLAN_K × the records stops the bench.
  await queryText(db, "TRUNCATE match_pairs");
  const plans = collectScanningLoops();
  await runMatch(db, { asOf: AS_OF, full: true, explain: plans.explain });
  const tooMany = plans.over(PLAN_K * 2 * rows);
  if (tooMany.length > 0)
    throw new Error(`statements scanning a table per row: ${JSON.stringify(tooMany.slice(0, 5))}`);
  const worstLoop = Math.max(0, ...plans.loops.map((l) => l.examined));
  const s = first.value.stats;
  const expectedBreaks = 3 * Math.floor(rows / 1000);
  console.log(
    `Postgres server: ${rows.toLocaleString("en-US")} provider records, ${rows.toLocaleString("en-US")} ledger entries (loaded with COPY in ${(load.ms / 1000).toFixed(1)} s); ` +
      `hash join ${(floor.ms / 1000).toFixed(2)} s, the median of ${joins.map((j) => (j.ms / 1000).toFixed(2)).join(", ")} s (${floor.value[0]?.n} pairs), in one process ${(serial.ms / 1000).toFixed(2)} s; ` +
      `first run ${(first.ms / floor.ms).toFixed(1)}× the join, ${(first.ms / serial.ms).toFixed(1)}× the join in one process; ` +
      `match ${(first.ms / 1000).toFixed(2)} s (verdict ${first.value.verdict}, exact ${s.matched.exact}, proposed ${s.matched.tolerant ?? 0}, open breaks ${s.openBreaks}: ${JSON.stringify(s.breaksByClass)}); ` +
      `rerun, nothing changed ${(second.ms / 1000).toFixed(3)} s (${((100 * second.ms) / first.ms).toFixed(1)} % of the first run); ` +
      `rerun after ${CHANGES} new records (and their authorizations), ${CHANGES} new entries, 1,000 clearings failed, 500 authorizations settled and 1,000 ledger amounts corrected ${(changed.ms / 1000).toFixed(3)} s (${((100 * changed.ms) / first.ms).toFixed(1)} % of the first run; ${changed.value.scopeRecords} records re-matched; ${newBreaks} new, ${resolvedBreaks} resolved breaks); ` +
      `rerun --full ${(full.ms / 1000).toFixed(2)} s (${((100 * full.ms) / first.ms).toFixed(0)} %, same results); ` +
      `first run's statements planned: no loop scanning a table per row beyond ${PLAN_K} × the records (the largest would examine ${worstLoop.toLocaleString("en-US")} rows)`,
  );
  if (s.openBreaks < expectedBreaks)
    throw new Error(`expected at least ${expectedBreaks} breaks, got ${s.openBreaks}`);
  for (const [which, result] of [
    ["first run", first.value],
    ["unchanged rerun", second.value],
    ["rerun after changes", changed.value],
  ] as const) {
    // RECONCILER_MATCH_TIMINGS=1 prints every statement's milliseconds, in run order.
    if (benchSetting("RECONCILER_MATCH_TIMINGS"))
      console.log(`timings of the ${which}: ${JSON.stringify(result.timings)}`);
    const { inStatements, slowest } = statementSummary(result.timings, 10);
    console.log(
      `slowest statements of the ${which} (${inStatements} of ${result.durationMs} ms in statements): ${slowest}`,
    );
  }
  const records = 2 * rows;
  const row = (name: string, ms: number): CaseResult => ({
    name,
    opsPerSec: (records / ms) * 1000,
    nsPerOp: (ms * 1e6) / records,
    ratio: ms / floor.ms,
  });
  printTable(
    `match ${rows.toLocaleString("en-US")} × ${rows.toLocaleString("en-US")} (goal: first run ≤ 10 s)`,
    "record",
    [
      row("plain hash join of the two tables (floor, median of 3)", floor.ms),
      row("the same join in one process (reference: no parallel workers)", serial.ms),
      row("runMatch, first run (all passes + writes)", first.ms),
      row("runMatch, rerun on unchanged data (reused)", second.ms),
      row("runMatch, rerun after a day of changes (incremental)", changed.ms),
      row("runMatch --full, the same rerun", full.ms),
    ],
  );
  return {
    rows,
    firstMs: first.ms,
    unchangedMs: second.ms,
    changedMs: changed.ms,
    floorMs: floor.ms,
    scope: changed.value.scopeRecords ?? 0,
  };
}

/** The sweep: the same day of changes over histories of several sizes, in one table. */
function printSweep(figures: Figures[]): void {
  console.log("\n## history sweep: the same day of changes over a longer history");
  console.log(
    "card records   first run  floor×  incremental  of first  scope records  unchanged  of first",
  );
  for (const f of figures)
    console.log(
      `${f.rows.toLocaleString("en-US").padStart(12)}  ${(f.firstMs / 1000).toFixed(2).padStart(9)} s  ${(f.firstMs / f.floorMs).toFixed(1).padStart(5)}  ${(f.changedMs / 1000).toFixed(2).padStart(10)} s  ${((100 * f.changedMs) / f.firstMs).toFixed(1).padStart(7)} %  ${f.scope.toLocaleString("en-US").padStart(13)}  ${(f.unchangedMs / 1000).toFixed(3).padStart(7)} s  ${((100 * f.unchangedMs) / f.firstMs).toFixed(1).padStart(7)} %`,
    );
  const [smallest, largest] = [figures[0], figures.at(-1)];
  if (smallest && largest && smallest !== largest)
    console.log(
      `incremental rerun grows ${(largest.changedMs / smallest.changedMs).toFixed(2)}× from ${smallest.rows.toLocaleString("en-US")} to ${largest.rows.toLocaleString("en-US")} card records (goal ≤ 1.5×)`,
    );
}

export async function run(): Promise<void> {
  const url = postgresServer("the matching bench");
  if (!url) return;
  // RECONCILER_MATCH_SWEEP=250000,1000000,4000000 runs every size, one database each, and
  // prints the sweep; RECONCILER_MATCH_ROWS one size (default 1,000,000).
  const sizes = (
    benchSetting("RECONCILER_MATCH_SWEEP") ??
    benchSetting("RECONCILER_MATCH_ROWS") ??
    "1000000"
  )
    .split(",")
    .map(Number);
  if (sizes.some((rows) => !Number.isInteger(rows) || rows < 10_000))
    throw new Error("RECONCILER_MATCH_ROWS / RECONCILER_MATCH_SWEEP: integers ≥ 10000");
  const figures: Figures[] = [];
  for (const rows of sizes) {
    const scratch = await createScratchDatabase(url, "reconciler_bench");
    try {
      const database = await openDatabase({ url: scratch.url });
      try {
        figures.push(await measure(database.db, rows));
      } finally {
        await database.close();
      }
    } finally {
      // RECONCILER_MATCH_KEEP=1 keeps the database to look at the plans (its URL is printed,
      // without credentials).
      if (benchSetting("RECONCILER_MATCH_KEEP"))
        console.log(`kept ${describeDatabaseUrl(scratch.url)}`);
      else await scratch.drop();
    }
  }
  if (figures.length > 1) printSweep(figures);
}
