// A stream's running summary, and closing its sync_runs row with it.

import { causedByDriverSocketFault } from "../db/driver-socket-fault";
import { describeDatabaseUrl } from "../db/reach-database";
import { logEvent } from "../log-event";
import { errorText } from "../store/error-text";
import { finishRun, type RunOutcome } from "../store/sync-runs";
import { emptyCounts } from "../store/upsert-batch";
import type { StreamSummary, SyncContext } from "./sync-types";

export function emptySummary(outcome: StreamSummary["outcome"] = "ok"): StreamSummary {
  return {
    outcome,
    runId: undefined,
    windows: 0,
    pages: 0,
    recordsSeen: 0,
    ...emptyCounts(),
    failedWindows: 0,
    lagSeconds: null,
    error: undefined,
    unread: null,
  };
}

/**
 * What a log line says of an error: its text (errorText), and the database (host:port/name, no
 * credentials) when the database ended the connection under the stream — the driver's
 * `CONNECTION_CLOSED host:port` names the host, but the server's own word for a restart or a
 * pg_terminate_backend ("terminating connection due to administrator command", 57P01) names
 * neither the database nor where it is.
 */
export function errorFields(
  ctx: SyncContext,
  error: unknown,
): { error: string; database?: string } {
  const text = errorText(error);
  const url = ctx.config.database.url;
  return url && causedByDriverSocketFault(error)
    ? { error: text, database: describeDatabaseUrl(url) }
    : { error: text };
}

/** Writes the outcome and counts to the run's row (a failure to do so is logged, not thrown). */
export async function closeRun(
  ctx: SyncContext,
  stream: string,
  summary: StreamSummary,
  startedMs: number,
): Promise<void> {
  if (summary.runId && summary.outcome !== "busy")
    await finishRun(ctx.db, summary.runId, {
      outcome: summary.outcome as RunOutcome,
      windows: summary.windows,
      pages: summary.pages,
      recordsSeen: summary.recordsSeen,
      inserted: summary.inserted,
      updated: summary.updated,
      unchanged: summary.unchanged,
      skippedDowngrades: summary.skippedDowngrades,
      error: summary.error,
    }).catch((error: unknown) =>
      logEvent(ctx, "error", "could not close the run row", { stream, ...errorFields(ctx, error) }),
    );
  logEvent(ctx, "info", "stream finished", {
    stream,
    ...summary,
    seconds: (Date.now() - startedMs) / 1000,
  });
}
