// A stream's running summary, and closing its sync_runs row with it.

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
      logEvent(ctx, "error", "could not close the run row", { stream, error: errorText(error) }),
    );
  logEvent(ctx, "info", "stream finished", {
    stream,
    ...summary,
    seconds: (Date.now() - startedMs) / 1000,
  });
}
