// runSync: one pass over the chosen streams, each under its advisory lock, each writing a
// sync_runs row; the entry point of `reconciler sync`, `backfill`, `schedule`, `run` and `demo`.

import { logEvent } from "../log-event";
import { compactChangeLog } from "../store/change-log";
import { errorText } from "../store/error-text";
import { STREAM_BUSY, withStreamLock } from "../store/stream-lock";
import type { Unread } from "../store/unread";
import { syncAccountStream } from "./account-stream";
import { emptySummary, errorFields } from "./stream-summary";
import {
  STREAM_NAMES,
  type StreamName,
  type StreamSummary,
  type SyncContext,
  type SyncOptions,
  type SyncOutcome,
  type SyncSummary,
} from "./sync-types";
import { syncWindowedStream } from "./windowed-stream";

export { createSyncContext } from "./sync-context";
export type {
  StreamName,
  StreamSummary,
  SyncContext,
  SyncOptions,
  SyncProgress,
  SyncSummary,
} from "./sync-types";

/**
 * Everything the streams left unread, summed, with the oldest since; null when a stream that ran
 * could not tell (it ended in an error, the database gone): a count of 0 would read as "nothing
 * missing" to a monitor that watches it. A busy stream is another worker's to tell.
 */
export function totalUnread(summaries: StreamSummary[]): Unread | null {
  let count = 0;
  let since: string | null = null;
  for (const s of summaries) {
    if (!s.unread) {
      if (s.outcome === "busy") continue;
      return null;
    }
    count += s.unread.count;
    if (s.unread.since && (!since || s.unread.since < since)) since = s.unread.since;
  }
  return { count, since };
}

/** A stream that found nothing to read (no window, no serviceId due) and so did nothing. */
function hadNothingDue(s: StreamSummary): boolean {
  return s.outcome === "ok" && s.windows === 0 && s.failedWindows === 0;
}

/**
 * A busy stream (another worker holds it) is no failure of a regular sync: that worker reads the
 * same range. A range asked for (`--from/--to`, a backfill) it does not read: left unread, the
 * run is partial (exit 3), not ok. A stream with nothing due read nothing either: when every
 * window of the others failed, the run failed (exit 1), it did not partly succeed.
 */
export function overallOutcome(summaries: StreamSummary[], explicitRange: boolean): SyncOutcome {
  if (explicitRange && summaries.some((s) => s.outcome === "busy")) return "partial";
  const ran = summaries.filter((s) => s.outcome !== "busy");
  const worked = ran.filter((s) => !hadNothingDue(s));
  if (worked.length > 0 && worked.every((s) => s.outcome === "failed")) return "failed";
  // A stream that ended in an error (the database gone) could not even tell what it left
  // unread: the run failed, whatever the other streams did.
  if (ran.some((s) => s.outcome === "failed" && s.unread === null)) return "failed";
  if (ran.some((s) => s.outcome !== "ok")) return "partial";
  return "ok";
}

/**
 * Syncs the chosen streams (default all): card transactions and operation records side by side
 * (sharing the clients' request-rate limiter), then account transactions for the serviceIds the
 * operation records revealed. A stream another worker holds is skipped ("busy") and logged.
 * Errors are caught per stream and reported in the summary, never thrown.
 */
export async function runSync(ctx: SyncContext, opts: SyncOptions = {}): Promise<SyncSummary> {
  const started = Date.now();
  const streams = opts.streams ?? [...STREAM_NAMES];
  for (const s of streams)
    if (!STREAM_NAMES.includes(s)) throw new TypeError(`unknown stream ${String(s)}`);
  if (opts.from && opts.to && opts.from >= opts.to)
    throw new RangeError("--from must be before --to");
  if (opts.backfill && (!opts.from || !opts.to))
    throw new RangeError("a backfill needs both from and to");

  const results: Partial<Record<StreamName, StreamSummary>> = {};
  const runOne = async (stream: StreamName): Promise<void> => {
    const outcome = await withStreamLock(ctx.db, stream, () =>
      stream === "account_transactions"
        ? syncAccountStream(ctx, opts)
        : syncWindowedStream(ctx, stream, opts),
    ).catch((error: unknown): StreamSummary => {
      // Only the lock itself can throw here (the stream runners catch their own errors).
      const fields = errorFields(ctx, error);
      logEvent(ctx, "error", "stream failed", { stream, ...fields });
      return { ...emptySummary("failed"), error: fields.error };
    });
    if (outcome === STREAM_BUSY) {
      logEvent(ctx, "warn", "stream busy: another worker holds its lock; skipped", { stream });
      results[stream] = emptySummary("busy");
    } else results[stream] = outcome;
  };

  const windowed = streams.filter((s) => s !== "account_transactions");
  await Promise.all(windowed.map(runOne));
  if (streams.includes("account_transactions")) await runOne("account_transactions");

  // A worker that only syncs never takes the match change log its writes fill: keep it bounded.
  await compactChangeLog(ctx.db).catch((error: unknown) =>
    logEvent(ctx, "warn", "could not compact the match change log", { error: errorText(error) }),
  );
  const summaries = Object.values(results);
  return {
    outcome: overallOutcome(summaries, opts.from !== undefined || opts.to !== undefined),
    unread: totalUnread(summaries),
    interrupted: opts.signal?.aborted === true,
    streams: results,
    seconds: (Date.now() - started) / 1000,
  };
}
