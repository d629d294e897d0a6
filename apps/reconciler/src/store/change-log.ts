// The change log (match_changes, filled by triggers; migration 0010) as match runs use it: an
// incremental run takes its rows, a full run drops them, and a log no run could use is kept
// from growing.

import { advisoryKey } from "../db/advisory-key";
import type { Db } from "../db/database";
import { isTrue, queryText } from "../db/query-rows";
import { sqlState } from "../db/sql-state";
import type { Statement } from "../db/statement";

/** The log's lock waited for longer than the run allows (MatchOptions.changeLogWaitMs). */
export class ChangeLogBusyError extends Error {
  constructor(waitMs: number, options?: ErrorOptions) {
    super(
      `the change log (match_changes) stayed locked by writers for ${waitMs} ms: a transaction writing provider records or ledger entries has not committed (look for it in pg_stat_activity); the run stops instead of waiting longer, and nothing of it is written`,
      options,
    );
    this.name = "ChangeLogBusyError";
  }
}

/** Postgres's lock_not_available: lock_timeout ran out. */
const LOCK_NOT_AVAILABLE = "55P03";

/**
 * Locks the log against writers (ACCESS EXCLUSIVE) before a run takes or drops it: waits for
 * the writers whose rows are in it to commit (the run then reads their records too) and holds
 * later ones off until the run commits. The wait is bounded by `waitMs` (0: none), so a
 * transaction left open on a source table fails the run with ChangeLogBusyError instead of
 * holding it, and every later one, without a word.
 */
export async function lockChangeLog(
  waitMs: number,
  run: (s: Statement) => Promise<unknown>,
): Promise<void> {
  await run({ name: "changes lock (wait limit)", text: `SET LOCAL lock_timeout = ${waitMs}` });
  try {
    await run({ name: "changes lock", text: "LOCK TABLE match_changes IN ACCESS EXCLUSIVE MODE" });
  } catch (error) {
    if (sqlState(error) === LOCK_NOT_AVAILABLE)
      throw new ChangeLogBusyError(waitMs, { cause: error });
    throw error;
  }
  await run({ name: "changes lock (wait limit end)", text: "SET LOCAL lock_timeout = DEFAULT" });
}

/**
 * What a run does with the log once it has matched. It holds lockChangeLog from its start, so
 * the log still holds exactly the changes its passes saw (an incremental run reads them in
 * place: the scope's seeds, scope.ts). A run that wrote its results empties it, with TRUNCATE
 * (DELETE would mark every row deleted one by one, at a few times the cost); one whose written
 * results no run may build on (incomplete) also asks the next run to match everything. A run
 * that wrote nothing leaves the log as it found it, for the next run; a failed one rolls back
 * with it.
 */
export function settleChanges(run: { persisted: boolean; buildable: boolean }): Statement[] {
  if (!run.persisted) return [];
  const emptied: Statement = { name: "changes taken", text: "TRUNCATE match_changes" };
  if (run.buildable) return [emptied];
  return [
    emptied,
    {
      name: "ask for a full run",
      text: "INSERT INTO match_changes (kind, ref) VALUES ('all', 'results no run may build on')",
    },
  ];
}

/** True when the log holds a TRUNCATE (or a run that asked for a full one). */
export async function changedEverything(tx: Db): Promise<boolean> {
  const [row] = await queryText<{ all: boolean | string }>(
    tx,
    "SELECT EXISTS (SELECT 1 FROM match_changes WHERE kind = 'all') AS all",
  );
  return isTrue(row?.all);
}

/**
 * How many log rows an incremental run can use over `records` records (provider items and
 * ledger entries of the last run): a ledger change logs two rows (the entry and its key), and
 * past `share` of the records the run matches everything anyway.
 */
export const usefulChanges = (records: number, share: number) => Math.ceil(2 * share * records);

/** True when the log holds more than `limit` rows (counting no further than that). */
export async function changesExceed(tx: Db, limit: number): Promise<boolean> {
  const [row] = await queryText<{ over: boolean | string }>(
    tx,
    `SELECT count(*) > ${Math.trunc(limit)} AS over
     FROM (SELECT 1 FROM match_changes LIMIT ${Math.trunc(limit) + 1}) x`,
  );
  return isTrue(row?.over);
}

/**
 * How long compaction waits for the log's writers: it is housekeeping for a worker that only
 * syncs, and the next sync tries again, so it gives up soon (logged as a warning) rather than
 * hold the sync.
 */
const COMPACT_WAIT_MS = 10_000;

/** Below this many rows a log is left alone: compacting it would save nothing. */
const COMPACT_FLOOR = 100_000;

/**
 * Keeps a log that no match run takes (a worker that only syncs) from growing without end:
 * past what an incremental run could use, its rows are replaced by one `all` row — the next run
 * would match everything anyway. Skipped while a match run holds its lock (it owns the log).
 */
export async function compactChangeLog(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const [lock] = await queryText<{ locked: boolean | string }>(
      tx,
      `SELECT pg_try_advisory_xact_lock(${advisoryKey("match")}) AS locked`,
    );
    if (!isTrue(lock?.locked)) return;
    const [last] = await queryText<{ records: string | null }>(
      tx,
      `SELECT (stats->>'providerItems')::bigint + (stats->>'ledgerEntries')::bigint AS records
       FROM match_runs WHERE finished_at IS NOT NULL AND fingerprint IS NOT NULL
       ORDER BY started_at DESC LIMIT 1`,
    );
    const limit = Math.max(COMPACT_FLOOR, usefulChanges(Number(last?.records ?? 0), 0.25));
    if (!(await changesExceed(tx, limit))) return;
    await lockChangeLog(COMPACT_WAIT_MS, (s) => queryText(tx, s.text));
    for (const s of settleChanges({ persisted: true, buildable: false }))
      await queryText(tx, s.text);
  });
}
