/**
 * Monthly range partitions of the history tables, against the tables as the migrations make
 * them: the same records (reconciler-match's generators, spread over 12 months) loaded into two
 * scratch databases, (a) as migrated and (b) with card_transactions partitioned by month on
 * transaction_time and ledger_entries on booked_at, then timed side by side in one run: the
 * load, a first runMatch, an unchanged rerun, the incremental rerun after a day of changes, and
 * the statements bounded by time that partitions could help (the stale-authorization clock, a
 * sync window, a month, a day's statement lines), the probes by key they could hurt, and
 * retiring the oldest month. Ratios are partitioned / plain.
 *
 * Needs DATABASE_URL (two throwaway databases are created on it and dropped).
 * RECONCILER_PARTITION_ROWS: card records, and as many ledger entries (default 4,000,000).
 */
import { performance } from "node:perf_hooks";
import { openDatabase } from "../apps/reconciler/src/db/connect";
import { copyRows } from "../apps/reconciler/src/db/copy-rows";
import type { Db } from "../apps/reconciler/src/db/database";
import { queryText } from "../apps/reconciler/src/db/query-rows";
import { createScratchDatabase } from "../apps/reconciler/src/db/scratch-database";
import { type MatchRunResult, runMatch } from "../apps/reconciler/src/match/run-match";
import { benchSetting, median, postgresServer } from "./harness";
import {
  authorizationLines,
  CARD_COLUMNS,
  cardLines,
  LEDGER_COLUMNS,
  ledgerLines,
} from "./reconciler-match.bench";

const DAY = 86_400_000;
/** The history: 12 months before AS_OF, the day of changes at its end. */
const FIRST_MONTH = Date.UTC(2025, 5, 1);
const MONTHS = 12;
const AS_OF = new Date(Date.UTC(2026, 5, 1));
/** The day of changes: as many new provider records and ledger entries. */
const CHANGES = 10_000;

/** The history tables partitioned in copy (b), each on its time column. */
const PARTITIONED = [
  { table: "card_transactions", column: "transaction_time" },
  { table: "ledger_entries", column: "booked_at" },
] as const;

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * The generators put record i at start + i × step (and its authorization, ledger entry and
 * settlement at fixed offsets from it), all in one month. Read that clock from their first two
 * records, so the spread below follows it without restating it.
 */
function generatorClock(): { start: number; step: number } {
  const [a, b] = [...cardLines(2)]
    .join("")
    .split("\n")
    .map((line) => Date.parse(line.split("\t")[6] ?? ""));
  if (a === undefined || b === undefined || Number.isNaN(a) || Number.isNaN(b))
    throw new Error("cardLines: no transaction_time in its 7th column");
  return { start: a, step: b - a };
}

/**
 * The same lines with record i moved to FIRST_MONTH + i × step, every time of a line shifted
 * alike (so an entry is still booked an hour after its record, an authorization a minute
 * before). i is read from the line's key: T or A + 10^14 + i for provider records, L + i for
 * ledger entries.
 */
function* spread(lines: Iterable<string>, step: number): Generator<string> {
  const from = generatorClock();
  for (const chunk of lines)
    yield chunk
      .split("\n")
      .map((line) => {
        if (line === "") return line;
        const fields = line.split("\t");
        const key = fields[0] ?? "";
        const i = Number(key.slice(1)) - (key.startsWith("L") ? 0 : 100_000_000_000_000);
        const shift = FIRST_MONTH - from.start + i * (step - from.step);
        return fields
          .map((f) => (ISO_TIME.test(f) ? new Date(Date.parse(f) + shift).toISOString() : f))
          .join("\t");
      })
      .join("\n");
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

const monthStart = (m: number) => new Date(Date.UTC(2025, 5 + m, 1)).toISOString().slice(0, 10);
const partitionName = (table: string, m: number) =>
  `${table}_p${monthStart(m).slice(0, 7).replace("-", "_")}`;

interface View {
  oid: number;
  name: string;
  definition: string;
  relkind: string;
}

/**
 * Turns the history tables (empty, as migrated) into range partitions by month: a partitioned
 * parent with the same columns, defaults and checks, one partition per month of the history
 * plus one ahead and a default one, then every index, trigger and dependent view of the
 * migrations put back on the parent (an index or a statement trigger on a partitioned table
 * covers every partition; its transition tables hold the rows of all). The one change Postgres
 * forces: a unique key must contain the partition key, so each primary key is widened by the
 * time column (which becomes NOT NULL). Answers what it changed, in words.
 */
async function partitionByMonth(db: Db): Promise<string[]> {
  const tables = PARTITIONED.map((p) => `'${p.table}'::regclass`).join(", ");
  const changes: string[] = [];
  await db.transaction(async (tx) => {
    // Every view reading the tables, directly or through another view, with the views it
    // reads: dropped with the tables and made again from their definitions, in that order.
    const views = await queryText<View & Record<string, unknown>>(
      tx,
      `WITH RECURSIVE deps(oid) AS (
         SELECT r.ev_class FROM pg_depend d JOIN pg_rewrite r ON r.oid = d.objid
         WHERE d.refobjid IN (${tables}) AND r.ev_class <> d.refobjid
         UNION
         SELECT r.ev_class FROM deps JOIN pg_depend d ON d.refobjid = deps.oid
           JOIN pg_rewrite r ON r.oid = d.objid WHERE r.ev_class <> deps.oid)
       SELECT c.oid::int AS oid, quote_ident(c.relname) AS name, c.relkind::text AS relkind,
         pg_get_viewdef(c.oid) AS definition
       FROM deps JOIN pg_class c ON c.oid = deps.oid`,
    );
    if (views.some((v) => v.relkind !== "v"))
      throw new Error("a materialized view reads a history table: not handled");
    const edges = await queryText<{ view: number; reads: number }>(
      tx,
      `SELECT DISTINCT r.ev_class::int AS view, d.refobjid::int AS reads
       FROM pg_depend d JOIN pg_rewrite r ON r.oid = d.objid
       WHERE r.ev_class IN (${views.map((v) => v.oid).join(", ") || "0"})
         AND d.refobjid IN (${views.map((v) => v.oid).join(", ") || "0"})
         AND d.refobjid <> r.ev_class`,
    );
    const ordered: View[] = [];
    const pending = new Set(views);
    while (pending.size > 0) {
      const ready = [...pending].filter(
        (v) => !edges.some((e) => e.view === v.oid && [...pending].some((p) => p.oid === e.reads)),
      );
      if (ready.length === 0) throw new Error("the views reading the history tables form a cycle");
      for (const v of ready) {
        ordered.push(v);
        pending.delete(v);
      }
    }
    const rebuild: string[] = [];
    for (const { table, column } of PARTITIONED) {
      const indexes = await queryText<{ def: string }>(
        tx,
        `SELECT pg_get_indexdef(i.indexrelid) AS def FROM pg_index i
         WHERE i.indrelid = '${table}'::regclass
           AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
         ORDER BY i.indexrelid`,
      );
      const keys = await queryText<{ name: string; def: string; contype: string }>(
        tx,
        `SELECT quote_ident(conname) AS name, contype::text AS contype, pg_get_constraintdef(oid) AS def
         FROM pg_constraint WHERE conrelid = '${table}'::regclass AND contype NOT IN ('c', 'n')`,
      );
      const triggers = await queryText<{ def: string }>(
        tx,
        `SELECT pg_get_triggerdef(oid) AS def FROM pg_trigger
         WHERE tgrelid = '${table}'::regclass AND NOT tgisinternal ORDER BY oid`,
      );
      const nullable = await queryText<{ nullable: boolean | string }>(
        tx,
        `SELECT NOT attnotnull AS nullable FROM pg_attribute
         WHERE attrelid = '${table}'::regclass AND attname = '${column}'`,
      );
      await queryText(
        tx,
        `CREATE TABLE ${table}_partitioned (LIKE ${table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS
           INCLUDING GENERATED INCLUDING IDENTITY INCLUDING STORAGE INCLUDING COMPRESSION
           INCLUDING STATISTICS INCLUDING COMMENTS) PARTITION BY RANGE (${column})`,
      );
      await queryText(tx, `DROP TABLE ${table} CASCADE`);
      await queryText(tx, `ALTER TABLE ${table}_partitioned RENAME TO ${table}`);
      for (let m = 0; m <= MONTHS; m++)
        await queryText(
          tx,
          `CREATE TABLE ${partitionName(table, m)} PARTITION OF ${table}
           FOR VALUES FROM ('${monthStart(m)}T00:00:00Z') TO ('${monthStart(m + 1)}T00:00:00Z')`,
        );
      await queryText(tx, `CREATE TABLE ${table}_pdefault PARTITION OF ${table} DEFAULT`);
      changes.push(
        `${table}: partitioned by range (${column}), ${MONTHS + 1} monthly partitions ${monthStart(0)} … ${monthStart(MONTHS + 1)} and a default one`,
      );
      for (const key of keys) {
        if (key.contype !== "p" && key.contype !== "u")
          throw new Error(`${table}: constraint ${key.name} (${key.def}) not handled`);
        const widened = key.def.replace(/\)$/, `, ${column})`);
        if (String(nullable[0]?.nullable) === "true" || nullable[0]?.nullable === true) {
          await queryText(tx, `ALTER TABLE ${table} ALTER COLUMN ${column} SET NOT NULL`);
          changes.push(`${table}.${column}: NOT NULL (a primary key's column)`);
        }
        rebuild.push(`ALTER TABLE ${table} ADD CONSTRAINT ${key.name} ${widened}`);
        changes.push(`${table}: ${key.def} → ${widened}`);
      }
      for (const { def } of indexes) {
        if (/^CREATE UNIQUE/.test(def) && !def.includes(column))
          throw new Error(`${table}: unique index without ${column}: ${def}`);
        rebuild.push(def);
      }
      for (const { def } of triggers) rebuild.push(def);
      changes.push(
        `${table}: ${indexes.length} indexes and ${triggers.length} statement triggers as migrated, on the parent`,
      );
    }
    for (const text of rebuild) await queryText(tx, text);
    for (const v of ordered) await queryText(tx, `CREATE VIEW ${v.name} AS ${v.definition}`);
    changes.push(
      `${ordered.length} views reading them made again: ${ordered.map((v) => v.name).join(", ")}`,
    );
  });
  return changes;
}

/** Loads the history (reconciler-match's records, spread over 12 months) and analyses it. */
async function load(db: Db, rows: number, step: number): Promise<void> {
  await copyRows(db, {
    table: "card_transactions",
    columns: CARD_COLUMNS,
    lines: spread(cardLines(rows), step),
  });
  await copyRows(db, {
    table: "card_transactions",
    columns: CARD_COLUMNS,
    lines: spread(authorizationLines(rows), step),
  });
  await copyRows(db, {
    table: "ledger_entries",
    columns: LEDGER_COLUMNS,
    lines: spread(ledgerLines(rows), step),
  });
  await queryText(
    db,
    `INSERT INTO sync_watermarks (stream, watermark) VALUES ('card_transactions', '${AS_OF.toISOString()}'), ('operate_records', '${AS_OF.toISOString()}')`,
  );
  // Autovacuum analyses partitions but never a partitioned parent: the planner's figures for
  // the parent come from this ANALYZE only (a production table would need it scheduled).
  await queryText(db, "VACUUM ANALYZE");
}

/**
 * A day's changes, at the recent end of the history where a day's changes land: the next
 * 10,000 provider records (and their authorizations) and the 10,000 entries booking them,
 * 1,000 clearings of the days before turned failed, 500 pending authorizations settled, 1,000
 * ledger amounts corrected by a cent. The same rows in both databases (ordered by time, then key).
 */
async function dayOfChanges(db: Db, rows: number, step: number): Promise<void> {
  await copyRows(db, {
    table: "card_transactions",
    columns: CARD_COLUMNS,
    lines: spread(cardLines(CHANGES, rows), step),
  });
  await copyRows(db, {
    table: "ledger_entries",
    columns: LEDGER_COLUMNS,
    lines: spread(ledgerLines(CHANGES, rows), step),
  });
  await copyRows(db, {
    table: "card_transactions",
    columns: CARD_COLUMNS,
    lines: spread(authorizationLines(CHANGES, rows), step),
  });
  const recent = (where: string, offset: number, limit: number) =>
    `SELECT txn_order_no FROM card_transactions WHERE ${where}
     ORDER BY transaction_time DESC, txn_order_no LIMIT ${limit} OFFSET ${offset}`;
  await queryText(
    db,
    `UPDATE card_transactions SET txn_status = 'F', version = version + 1, updated_at = now()
     WHERE txn_order_no IN (${recent("txn_type = 'CLEARING'", 2 * CHANGES, 1_000)})`,
  );
  await queryText(
    db,
    `UPDATE card_transactions SET txn_status = 'S', version = version + 1, updated_at = now()
     WHERE txn_order_no IN (${recent("txn_type = 'AUTHORIZATION' AND txn_status = 'P'", 2_000, 500)})`,
  );
  await queryText(
    db,
    `UPDATE ledger_entries SET amount = amount + 0.01, updated_at = now()
     WHERE entry_id IN (SELECT entry_id FROM ledger_entries
       ORDER BY booked_at DESC, entry_id LIMIT 1000 OFFSET ${2 * CHANGES})`,
  );
}

interface Side {
  name: "plain" | "partitioned";
  db: Db;
}

interface Row {
  name: string;
  plain: number;
  partitioned: number;
  note?: string;
}

/** Runs fn on both databases, the order swapped every call; the median of `times` runs each. */
let pairs = 0;
async function both<T>(
  sides: readonly [Side, Side],
  fn: (side: Side) => Promise<T>,
  times = 1,
): Promise<{ plain: number; partitioned: number; values: Record<Side["name"], T> }> {
  const ms: Record<Side["name"], number[]> = { plain: [], partitioned: [] };
  const values = {} as Record<Side["name"], T>;
  for (let round = 0; round < times; round++) {
    const order = pairs++ % 2 === 0 ? sides : ([sides[1], sides[0]] as const);
    for (const side of order) {
      const t = await timed(() => fn(side));
      ms[side.name].push(t.ms);
      values[side.name] = t.value;
    }
  }
  return { plain: median(ms.plain), partitioned: median(ms.partitioned), values };
}

/** A statement's milliseconds in a run, summed over statements of that name. */
function statementMs(result: MatchRunResult, pattern: RegExp): number {
  return result.timings.filter((t) => pattern.test(t.name)).reduce((sum, t) => sum + t.ms, 0);
}

/** The statements of two runs whose time differs most, partitioned against plain. */
function largestDifferences(plain: MatchRunResult, partitioned: MatchRunResult): string {
  const sums = (r: MatchRunResult) => {
    const m = new Map<string, number>();
    for (const t of r.timings) m.set(t.name, (m.get(t.name) ?? 0) + t.ms);
    return m;
  };
  const [a, b] = [sums(plain), sums(partitioned)];
  return [...new Set([...a.keys(), ...b.keys()])]
    .map((name) => ({ name, plain: a.get(name) ?? 0, partitioned: b.get(name) ?? 0 }))
    .sort((x, y) => Math.abs(y.partitioned - y.plain) - Math.abs(x.partitioned - x.plain))
    .slice(0, 8)
    .map((d) => `${d.name} ${d.plain} → ${d.partitioned} ms`)
    .join("; ");
}

const sameStats = (a: MatchRunResult, b: MatchRunResult) =>
  JSON.stringify(a.stats) === JSON.stringify(b.stats);

async function sizes(db: Db, table: string): Promise<number> {
  const [row] = await queryText<{ bytes: string }>(
    db,
    `SELECT sum(pg_total_relation_size(c.oid))::text AS bytes FROM pg_class c
     WHERE c.oid = '${table}'::regclass OR c.oid IN (SELECT relid FROM pg_partition_tree('${table}'))`,
  );
  return Number(row?.bytes ?? 0);
}

async function measure(sides: readonly [Side, Side], rows: number): Promise<Row[]> {
  // The history and the day of changes fill the 12 months up to a day before AS_OF, so the
  // last days (a sync window, the stale clock) hold records at every size.
  const step = Math.floor((AS_OF.getTime() - DAY - FIRST_MONTH) / (rows + CHANGES));
  const out: Row[] = [];
  const add = (name: string, r: { plain: number; partitioned: number }, note?: string) =>
    out.push({ name, plain: r.plain, partitioned: r.partitioned, ...(note ? { note } : {}) });
  // Loaded one after the other (not interleaved: each load is minutes at 4M).
  const loads: Record<Side["name"], number> = { plain: 0, partitioned: 0 };
  for (const side of sides) loads[side.name] = (await timed(() => load(side.db, rows, step))).ms;
  add("load: COPY 2.2 × rows records + VACUUM ANALYZE", loads);
  for (const { table } of PARTITIONED) {
    const [p, q] = [await sizes(sides[0].db, table), await sizes(sides[1].db, table)];
    add(`${table}: size with indexes (MB, not ms)`, {
      plain: p / 2 ** 20,
      partitioned: q / 2 ** 20,
    });
  }
  const asOf = `'${AS_OF.toISOString()}'::timestamptz`;
  const first = await both(sides, (s) => runMatch(s.db, { asOf: AS_OF }));
  if (!sameStats(first.values.plain, first.values.partitioned))
    throw new Error(
      `first runs differ: ${JSON.stringify(first.values.plain.stats)} vs ${JSON.stringify(first.values.partitioned.stats)}`,
    );
  const s = first.values.plain.stats;
  add("runMatch, first run", first, `${s.matched.exact} exact, ${s.openBreaks} open breaks`);
  const staleFirst = {
    plain: statementMs(first.values.plain, /^stale authorizations$/),
    partitioned: statementMs(first.values.partitioned, /^stale authorizations$/),
  };
  add("  its stale-authorization pass (statement)", staleFirst);
  console.log(
    `first run, largest differences: ${largestDifferences(first.values.plain, first.values.partitioned)}`,
  );
  const unchanged = await both(sides, (s) => runMatch(s.db, { asOf: AS_OF }));
  for (const side of sides)
    if (unchanged.values[side.name].reusedRunId !== first.values[side.name].runId)
      throw new Error(`${side.name}: the rerun on unchanged data did not reuse the first run`);
  add("runMatch, rerun on unchanged data (reused)", unchanged);
  const writes = await both(sides, (s) => dayOfChanges(s.db, rows, step));
  add("the day of changes written (COPY 22,000 + 3 UPDATEs)", writes);
  const changed = await both(sides, (s) => runMatch(s.db, { asOf: AS_OF }));
  // A day of changes that reaches much of a small history is matched in full (both sides alike).
  if (changed.values.plain.incremental !== changed.values.partitioned.incremental)
    throw new Error("one side matched the day of changes incrementally, the other in full");
  if (!sameStats(changed.values.plain, changed.values.partitioned))
    throw new Error(
      `incremental runs differ: ${JSON.stringify(changed.values.plain.stats)} vs ${JSON.stringify(changed.values.partitioned.stats)}`,
    );
  add(
    "runMatch, rerun after the day of changes (incremental)",
    changed,
    changed.values.plain.incremental
      ? `${changed.values.plain.scopeRecords} records in scope`
      : "matched in full: the day reaches too much of this history",
  );
  console.log(
    `incremental run, largest differences: ${largestDifferences(changed.values.plain, changed.values.partitioned)}`,
  );
  const read = (name: string, text: string) =>
    both(
      sides,
      (s) =>
        s.db.transaction(async (tx) => {
          // As the matcher's statements run: no parallel workers (see reconciler-match).
          await queryText(tx, "SET LOCAL max_parallel_workers_per_gather = 0");
          return queryText(tx, text);
        }),
      3,
    ).then((r) => add(`${name} (median of 3)`, r));
  await read(
    "stale clock: authorizations turned stale in the last day",
    `SELECT count(*) FROM card_transactions WHERE txn_type = 'AUTHORIZATION' AND txn_status = 'P'
       AND transaction_time >= ${asOf} - interval '8 days' AND transaction_time < ${asOf} - interval '7 days'`,
  );
  await read(
    "sync window: card records of the last 3 days",
    `SELECT count(*), sum(card_amount) FROM card_transactions
     WHERE transaction_time >= ${asOf} - interval '3 days'`,
  );
  await read(
    "sync window, now()-relative (pruned at run time)",
    `SELECT count(*), sum(card_amount) FROM card_transactions
     WHERE transaction_time >= now() - (now() - ${asOf}) - interval '3 days'`,
  );
  await read(
    "ledger entries booked in the last 3 days",
    `SELECT count(*), sum(amount) FROM ledger_entries WHERE booked_at >= ${asOf} - interval '3 days'`,
  );
  await read(
    "one month of card records (a month's report)",
    `SELECT count(*), sum(card_amount) FROM card_transactions
     WHERE transaction_time >= '${monthStart(9)}' AND transaction_time < '${monthStart(10)}'`,
  );
  await read(
    "one day's statement lines (finance view)",
    `SELECT count(*), sum(provider_amount), sum(ledger_amount) FROM finance_statement_lines
     WHERE day = '${monthStart(9)}'::date + 14`,
  );
  const spacing = Math.max(1, Math.floor(rows / 10_000));
  await read(
    "10,000 card records by key, across the history",
    `SELECT count(*) FROM card_transactions WHERE txn_order_no = ANY (ARRAY(
       SELECT 'T' || (100000000000000 + g * ${spacing}) FROM generate_series(0, 9999) g))`,
  );
  await read(
    "10,000 ledger entries by provider_ref, across the history",
    `SELECT count(*) FROM ledger_entries WHERE provider_ref = ANY (ARRAY(
       SELECT 'T' || (100000000000000 + g * ${spacing}) FROM generate_series(0, 9999) g))`,
  );
  // Retention: the oldest month out. Plain: a DELETE (its rows through the change-log
  // triggers); partitioned: the month's partitions dropped, which no row trigger sees.
  const retire = await both(sides, async (s) => {
    if (s.name === "plain") {
      await queryText(
        s.db,
        `DELETE FROM card_transactions WHERE transaction_time < '${monthStart(1)}'`,
      );
      await queryText(s.db, `DELETE FROM ledger_entries WHERE booked_at < '${monthStart(1)}'`);
    } else
      for (const { table } of PARTITIONED)
        await queryText(s.db, `DROP TABLE ${partitionName(table, 0)}`);
  });
  add("retire the oldest month (DELETE / DROP partition)", retire);
  return out;
}

function printRows(rows: number, out: Row[]): void {
  console.log(
    `\n## ${rows.toLocaleString("en-US")} card records + ${rows.toLocaleString("en-US")} ledger entries over ${MONTHS} months: plain vs monthly partitions`,
  );
  const width = Math.max(...out.map((r) => r.name.length));
  console.log(
    `${"case".padEnd(width)}  ${"plain".padStart(10)}  ${"partitioned".padStart(11)}  ratio`,
  );
  for (const r of out)
    console.log(
      `${r.name.padEnd(width)}  ${r.plain.toFixed(1).padStart(10)}  ${r.partitioned.toFixed(1).padStart(11)}  ${(r.partitioned / r.plain).toFixed(2)}×${r.note ? `  (${r.note})` : ""}`,
    );
  console.log("(milliseconds unless said; ratio = partitioned / plain)");
}

export async function run(): Promise<void> {
  const url = postgresServer("the partition bench");
  if (!url) return;
  const rows = Number(benchSetting("RECONCILER_PARTITION_ROWS") ?? "4000000");
  if (!Number.isInteger(rows) || rows < 10_000)
    throw new Error("RECONCILER_PARTITION_ROWS: an integer ≥ 10000");
  const scratch = [
    await createScratchDatabase(url, "reconciler_bench"),
    await createScratchDatabase(url, "reconciler_bench"),
  ];
  const opened: Awaited<ReturnType<typeof openDatabase>>[] = [];
  try {
    for (const s of scratch) opened.push(await openDatabase({ url: s.url }));
    const [plain, partitioned] = opened;
    if (!plain || !partitioned) throw new Error("two databases expected");
    const changes = await partitionByMonth(partitioned.db);
    console.log(`partitioned copy:\n- ${changes.join("\n- ")}`);
    const out = await measure(
      [
        { name: "plain", db: plain.db },
        { name: "partitioned", db: partitioned.db },
      ],
      rows,
    );
    printRows(rows, out);
  } finally {
    for (const d of opened) await d.close();
    for (const s of scratch) {
      if (benchSetting("RECONCILER_PARTITION_KEEP")) console.log(`kept ${s.url}`);
      else await s.drop();
    }
  }
}
