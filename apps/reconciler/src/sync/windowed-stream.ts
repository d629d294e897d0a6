// Runs one time-windowed stream (card transactions, operation records or payouts) once, as its
// plan says (window-plan.ts): the windows earlier runs failed, then [watermark − lookback, now)
// window by window, several at once, committing each window's rows with the watermark's advance
// in one transaction.

import { logEvent } from "../log-event";
import {
  type CommitWindowInput,
  type CommitWindowResult,
  commitWindow,
} from "../store/commit-window";
import { errorText } from "../store/error-text";
import { pendingRows, saveFollowCursor } from "../store/pending-follow";
import { openStreamRun } from "../store/sync-runs";
import { markWindowFailed, takeWindowsToRetry } from "../store/sync-windows";
import { unreadOf } from "../store/unread";
import { addCounts, type UpsertCounts } from "../store/upsert-batch";
import { readWatermark } from "../store/watermarks";
import { runPool } from "./pool";
import { readWindow } from "./read-window";
import { closeRun, emptySummary, errorFields } from "./stream-summary";
import type { StreamSummary, SyncContext, SyncOptions, WindowedStreamName } from "./sync-types";
import { boundsKey, planStreamRun } from "./window-plan";
import { WINDOWED_SOURCES } from "./windowed-sources";
import { floorToSecond, type TimeWindow, WindowPrefix } from "./windows";

/**
 * Runs the stream once (the caller holds its lock). Never throws: an error outside a window
 * (the database gone) ends the stream as "failed" with its counts so far.
 */
export async function syncWindowedStream(
  ctx: SyncContext,
  stream: WindowedStreamName,
  opts: SyncOptions,
): Promise<StreamSummary> {
  const { db, config } = ctx;
  const started = Date.now();
  const kind = opts.backfill ? "backfill" : (opts.kind ?? "sync");
  const summary = emptySummary();
  let windowsTotal = 0;
  const progress = () =>
    opts.onProgress?.({
      stream,
      windowsTotal,
      windowsDone: summary.windows,
      pages: summary.pages,
      recordsSeen: summary.recordsSeen,
      elapsedMs: Date.now() - started,
    });

  // Bounds recorded as failed by this run: a window read twice in one run (its retry, and the
  // run's own window within the same bounds) counts one attempt.
  const failedThisRun = new Set<string>();
  const markFailed = async (
    recorded: TimeWindow,
    reason: "failed" | "drifted",
    error: unknown,
  ): Promise<void> => {
    summary.failedWindows++;
    const key = boundsKey(recorded);
    if (failedThisRun.has(key)) return;
    failedThisRun.add(key);
    await markWindowFailed(db, { stream, ...recorded, reason, error });
  };

  /**
   * Reads one window and commits it; false when it failed (recorded under `recorded`, its
   * bounds in sync_windows, for a later run).
   */
  const processWindow = async (
    window: TimeWindow,
    recorded: TimeWindow,
    commit: (records: CommitWindowInput["records"]) => Promise<void>,
  ): Promise<boolean> => {
    const { pages, rows } = WINDOWED_SOURCES[stream];
    // Records the window failed (for a later run) and says so in the log.
    const fail = async (
      reason: "failed" | "drifted",
      error: unknown,
      what: string,
      detail: Record<string, unknown>,
    ): Promise<false> => {
      await markFailed(recorded, reason, error);
      logEvent(ctx, "warn", `${what}; retried next run`, {
        stream,
        start: window.start,
        end: window.end,
        ...detail,
      });
      return false;
    };
    let read: Awaited<ReturnType<typeof readWindow<unknown>>>;
    try {
      read = await readWindow({
        pages: () => pages(ctx, window),
        driftRetries: config.driftRetries,
        onPage: (n) => {
          summary.pages++;
          summary.recordsSeen += n;
          progress();
        },
      });
    } catch (error) {
      return fail("failed", error, "window failed", { error: errorText(error) });
    }
    if (read.kind === "drifted")
      return fail("drifted", read.detail, "window kept drifting", {
        reads: read.reads,
        detail: read.detail,
      });
    try {
      await commit(rows(read.records));
    } catch (error) {
      // A batch the database refused: the window is read again next run (the database being
      // gone makes markWindowFailed throw too, which ends the stream).
      return fail("failed", error, "window could not be committed", { error: errorText(error) });
    }
    return true;
  };

  const addResult = (counts: UpsertCounts) => {
    const total = addCounts(summary, counts);
    Object.assign(summary, total);
  };

  const logCommit = (window: TimeWindow, result: CommitWindowResult, retry: boolean) =>
    logEvent(ctx, "info", "window committed", {
      stream,
      start: window.start,
      end: window.end,
      retry,
      ...result.counts,
      watermark: result.watermark,
    });

  try {
    summary.runId = await openStreamRun(db, stream, kind);
    logEvent(ctx, "info", "stream started", { stream, kind, runId: summary.runId });

    // Windows earlier runs could not read: rows only (they are behind the watermark already).
    const recordedRetries = opts.backfill ? [] : await takeWindowsToRetry(db, { stream });
    const watermark = await readWatermark(db, stream);
    const now = new Date();
    // Only a `--to` ahead of now read before runRange capped it could have put it there; the
    // records since that run are not read until a person sets it back (docs/reconciler.md).
    if (watermark && watermark > now)
      logEvent(ctx, "warn", "watermark is ahead of now; records up to it may be unread", {
        stream,
        watermark,
        hint: "set it back to the start of the run that moved it (sync_runs); see docs/reconciler.md, failure modes",
      });
    const { from, to, windows, retries, movesWatermark } = planStreamRun(ctx, opts, {
      watermark,
      recordedRetries,
      now,
    });
    windowsTotal = retries.length + windows.length;
    logEvent(ctx, "info", "windows planned", {
      stream,
      from,
      to,
      windows: windows.length,
      retries: retries.length,
      watermark,
      movesWatermark,
    });

    const prefix = new WindowPrefix(windows.map((w) => w.read));
    const clock = floorToSecond(now);
    let committedWatermark = watermark;
    const tasks = [
      ...retries.map((r) => async () => {
        if (opts.signal?.aborted) return;
        const recorded = { start: r.start, end: r.end };
        // Up to now at most (a window recorded at the clock's end may reach past it): the rest
        // lies past the watermark, where this run's own windows read.
        const window = { start: r.start, end: r.end > clock && clock > r.start ? clock : r.end };
        await processWindow(window, recorded, async (records) => {
          const result = await commitWindow(db, { stream, records, window: recorded });
          addResult(result.counts);
          logCommit(window, result, true);
        });
        summary.windows++;
        progress();
      }),
      ...windows.map(({ read: window, recorded, whole }, index) => async () => {
        if (opts.signal?.aborted) return;
        await processWindow(window, recorded, async (records) => {
          const target = movesWatermark ? prefix.endWith(index) : undefined;
          const result = await commitWindow(db, {
            stream,
            records,
            watermark: target,
            // A failed window of earlier runs with these bounds is read now.
            window: whole ? recorded : undefined,
          });
          committedWatermark = result.watermark;
          addResult(result.counts);
          logCommit(window, result, false);
        });
        prefix.markDone(index);
        summary.windows++;
        progress();
        // A window that finished before an earlier one committed rows only; once the gap
        // closes, the watermark catches up to the finished prefix (failed windows are in
        // sync_windows, so passing them loses nothing).
        const end = prefix.end;
        if (movesWatermark && end && (!committedWatermark || end > committedWatermark)) {
          const result = await commitWindow(db, { stream, records: {}, watermark: end });
          committedWatermark = result.watermark;
        }
      }),
    ];
    // Records still pending from before this run's range are read one by one (payouts, card
    // transactions, card operations: followed to S or F however late that comes), in turn up to
    // the follow limit, counted as one more window when there are any. Regular runs only: an
    // explicit range or a backfill reads what it names.
    const { pending, rows } = WINDOWED_SOURCES[stream];
    const follows = pending && !opts.backfill && !opts.from && config.followLimit > 0;
    const pendingKeys = follows
      ? await pendingRows(db, stream, pending.table, from, config.followLimit)
      : [];
    const lastPending = pendingKeys.at(-1);
    if (pending && lastPending) {
      windowsTotal++;
      tasks.push(async () => {
        if (opts.signal?.aborted) return;
        try {
          const records: unknown[] = [];
          await runPool(
            pendingKeys.map((key) => async () => {
              const record = await pending.read(ctx, key);
              if (record !== undefined) records.push(record);
            }),
            config.concurrency,
          );
          const result = await commitWindow(db, { stream, records: rows(records) });
          addResult(result.counts);
          summary.recordsSeen += records.length;
          // Only once they are stored: a failed follow-up reads the same records next run.
          await saveFollowCursor(db, stream, lastPending);
        } catch (error) {
          summary.failedWindows++;
          logEvent(
            ctx,
            "warn",
            "pending records before the range could not be read; retried next run",
            {
              stream,
              before: from,
              records: pendingKeys.length,
              error: errorText(error),
            },
          );
        }
        summary.windows++;
        progress();
      });
    }
    await runPool(tasks, config.concurrency);

    const notStarted = windowsTotal - summary.windows;
    summary.unread = await unreadOf(db, stream);
    if (notStarted > 0) {
      summary.outcome = "partial";
      summary.error = `stopped before ${notStarted} of ${windowsTotal} windows`;
    } else if (summary.failedWindows > 0) {
      summary.outcome = summary.failedWindows === windowsTotal ? "failed" : "partial";
      summary.error = `${summary.failedWindows} of ${windowsTotal} windows failed; retried next run`;
    } else if (summary.unread.count > 0) {
      // Read this time, but windows of earlier runs are still waiting (another worker's).
      summary.outcome = "partial";
      summary.error = `${summary.unread.count} window(s) unread since ${summary.unread.since}`;
    }
    const stuck = recordedRetries.filter((r) => r.attempts + 1 >= config.maxWindowAttempts);
    if (summary.unread.count > 0 && stuck.length > 0)
      logEvent(ctx, "error", "windows keep failing; still retried every run", {
        stream,
        windows: stuck.length,
        oldest: stuck[0]?.start,
        hint: "see `reconciler windows`; a person may give one up with `reconciler windows give-up ID --reason TEXT --as NAME`",
      });
    const after = await readWatermark(db, stream);
    summary.lagSeconds = after ? Math.max(0, (Date.now() - after.getTime()) / 1000) : null;
  } catch (error) {
    summary.outcome = "failed";
    const fields = errorFields(ctx, error);
    summary.error = fields.error;
    logEvent(ctx, "error", "stream failed", { stream, ...fields });
  }
  await closeRun(ctx, stream, summary, started);
  return summary;
}
