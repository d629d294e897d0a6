// One row per run in sync_runs: opened when it starts, closed with its counts and outcome.
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { syncRuns } from "../db/schema";
import { errorText } from "./error-text";
import type { UpsertCounts } from "./upsert-batch";

type RunKind = "sync" | "backfill" | "schedule" | "webhook";
export type RunOutcome = "ok" | "failed" | "partial";

interface RunTotals extends Partial<UpsertCounts> {
  windows?: number;
  pages?: number;
  recordsSeen?: number;
}

/** Opens a run and returns its id (a UUID). */
export async function recordRun(db: Db, run: { stream: string; kind: RunKind }): Promise<string> {
  const [row] = await db
    .insert(syncRuns)
    .values({ stream: run.stream, kind: run.kind })
    .returning({ id: syncRuns.id });
  if (!row) throw new Error("sync_runs insert returned no id");
  return row.id;
}

/**
 * Opens a sync stream's run; the caller holds the stream's lock, so a run of the stream still
 * open is one that ended without closing its row (the worker killed, or its connection cut
 * mid-run so that the close failed too): it is closed first as failed, saying so, instead of
 * showing in sync_runs and `status` as running for ever.
 */
export async function openStreamRun(db: Db, stream: string, kind: RunKind): Promise<string> {
  await db
    .update(syncRuns)
    .set({
      outcome: "failed",
      finishedAt: sql`now()`,
      error:
        "ended without closing its run row (the worker stopped or lost the database mid-run); closed by the next run of the stream",
    })
    .where(and(eq(syncRuns.stream, stream), isNull(syncRuns.finishedAt)));
  return recordRun(db, { stream, kind });
}

/** Closes a run with its outcome, totals and (redacted) error. */
export async function finishRun(
  db: Db,
  runId: string,
  result: RunTotals & { outcome: RunOutcome; error?: unknown },
): Promise<void> {
  const { outcome, error, ...totals } = result;
  await db
    .update(syncRuns)
    .set({
      ...totals,
      outcome,
      finishedAt: sql`now()`,
      error: error === undefined ? null : errorText(error),
    })
    .where(eq(syncRuns.id, runId));
}

/** The latest runs, newest first (of one stream, or all). */
export function lastRuns(db: Db, opts: { stream?: string; limit?: number } = {}) {
  return db
    .select()
    .from(syncRuns)
    .where(opts.stream === undefined ? undefined : eq(syncRuns.stream, opts.stream))
    .orderBy(desc(syncRuns.startedAt))
    .limit(opts.limit ?? 20);
}
