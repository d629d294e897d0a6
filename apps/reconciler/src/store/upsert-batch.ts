// Runs a record type's upsert over any number of records: one statement per batch, in order.
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";
import { canonicalWireText, wireHash } from "./canonical-wire";
import type { UpsertSpec } from "./upsert-spec";
import { buildUpsertStatement, type UpsertStatement } from "./upsert-sql";

/** Where a record came from: a query of the service (sync) or a pushed event (webhook). */
export type RecordSource = "sync" | "webhook";

/** What an upsert did with the records it was given; the four add up to their number. */
export interface UpsertCounts {
  /** New keys stored (version 1). */
  inserted: number;
  /** Stored records that changed (a new version). */
  updated: number;
  /** Records identical to the stored state: nothing written. */
  unchanged: number;
  /** P snapshots of records already S or F: nothing written. */
  skippedDowngrades: number;
}

export interface UpsertOptions {
  source: RecordSource;
  /** Records per statement (default 5,000). */
  batchSize?: number | undefined;
}

export const DEFAULT_BATCH_SIZE = 5_000;

export function emptyCounts(): UpsertCounts {
  return { inserted: 0, updated: 0, unchanged: 0, skippedDowngrades: 0 };
}

export function addCounts(a: UpsertCounts, b: UpsertCounts): UpsertCounts {
  return {
    inserted: a.inserted + b.inserted,
    updated: a.updated + b.updated,
    unchanged: a.unchanged + b.unchanged,
    skippedDowngrades: a.skippedDowngrades + b.skippedDowngrades,
  };
}

const statements = new WeakMap<object, UpsertStatement>();

function statementOf<R>(spec: UpsertSpec<R>): UpsertStatement {
  let statement = statements.get(spec);
  if (!statement) {
    statement = buildUpsertStatement(spec);
    statements.set(spec, statement);
  }
  return statement;
}

function keyOf<R extends object>(spec: UpsertSpec<R>, record: R, index: number): string {
  const key = record[spec.keyField];
  if (typeof key !== "string" || key === "")
    throw new TypeError(`${spec.noun} ${index}: ${spec.keyField} must be a non-empty string`);
  if (spec.status) {
    const status = record[spec.status.field];
    if (status !== "P" && status !== "S" && status !== "F")
      throw new TypeError(`${spec.noun} ${key}: ${spec.status.field} must be P, S or F`);
  }
  return key;
}

/** One batch element: `{"h":hash,"r":record,"d":derived}`. */
function element<R extends object>(spec: UpsertSpec<R>, record: R): string {
  const text = canonicalWireText(record, spec.plan);
  const derived = spec.derive ? `,"d":${JSON.stringify(spec.derive(record))}` : "";
  return `{"h":"${wireHash(text)}","r":${text}${derived}}`;
}

/**
 * Records split into statements: a key's later occurrences (a page read twice, S then F in one
 * batch) go into later rounds, so every state is judged against the one before it (Postgres
 * refuses to touch a row twice in one INSERT … ON CONFLICT); each round in batchSize slices.
 */
function plan<R extends object>(spec: UpsertSpec<R>, records: readonly R[], batchSize: number) {
  const occurrences = new Map<string, number>();
  const rounds: R[][] = [];
  records.forEach((record, index) => {
    const key = keyOf(spec, record, index);
    const round = occurrences.get(key) ?? 0;
    occurrences.set(key, round + 1);
    const list = rounds[round] ?? [];
    list.push(record);
    rounds[round] = list;
  });
  const batches: R[][] = [];
  for (const round of rounds)
    for (let i = 0; i < round.length; i += batchSize) batches.push(round.slice(i, i + batchSize));
  return batches;
}

/**
 * Writes records of one type, in the order given, one statement per batch (and the spec's
 * afterUpsert after each). More than one statement runs in a transaction (a savepoint when `db`
 * already is one), so the call is all or nothing. The next batch's JSON is built while the
 * database runs the previous statement.
 */
export async function upsertRecords<R extends object>(
  db: Db,
  spec: UpsertSpec<R>,
  records: readonly R[],
  opts: UpsertOptions,
): Promise<UpsertCounts> {
  if (opts.source !== "sync" && opts.source !== "webhook")
    throw new TypeError(`source must be "sync" or "webhook"`);
  const batchSize = opts.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1)
    throw new RangeError("batchSize must be a positive integer");
  if (records.length === 0) return emptyCounts();
  const batches = plan(spec, records, batchSize);

  const statement = statementOf(spec);
  const counts = emptyCounts();
  const execute = async (executor: Db, batchText: string) => {
    const query = sql`${sql.raw(statement.beforeBatch)}${batchText}${sql.raw(statement.beforeSource)}${opts.source}${sql.raw(statement.rest)}`;
    const [row] = await queryRows<{
      inserted: unknown;
      updated: unknown;
      skipped: unknown;
      changed_keys?: string;
    }>(executor, query);
    counts.inserted += Number(row?.inserted ?? 0);
    counts.updated += Number(row?.updated ?? 0);
    counts.skippedDowngrades += Number(row?.skipped ?? 0);
    const { after } = statement;
    if (after && row?.changed_keys && row.changed_keys !== "[]")
      await queryRows(
        executor,
        sql`${sql.raw(after.beforeKeys)}${row.changed_keys}${sql.raw(after.rest)}`,
      );
  };
  const run = async (executor: Db) => {
    let running: Promise<void> | undefined;
    try {
      for (const batch of batches) {
        const text = `[${batch.map((record) => element(spec, record)).join(",")}]`;
        if (running) await running;
        running = execute(executor, text);
      }
      await running;
    } catch (error) {
      // Let a statement still in flight settle before the transaction is rolled back.
      await running?.catch(() => {});
      throw error;
    }
  };
  // afterUpsert must see its batch's rows and commit with them.
  if (batches.length > 1 || statement.after) await db.transaction((tx) => run(tx));
  else await run(db);
  counts.unchanged = records.length - counts.inserted - counts.updated - counts.skippedDowngrades;
  return counts;
}
