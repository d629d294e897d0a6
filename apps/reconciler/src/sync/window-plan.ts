// The plan of one run of a time-windowed stream: which windows it reads (the range
// [watermark − lookback | initial start, now) split into windows, each with the bounds it is
// recorded under), which failed windows of earlier runs it reads again, and whether its commits
// move the watermark. Pure: the runner (windowed-stream.ts) reads the state it needs first.

import type { RetryWindow } from "../store/sync-windows";
import type { SyncContext, SyncOptions } from "./sync-types";
import {
  alignDown,
  alignUp,
  ceilToSecond,
  floorToSecond,
  splitWindows,
  type TimeWindow,
} from "./windows";

/** Where a stream without a watermark starts: RECONCILER_START, as of `now`. */
function initialStartOf(ctx: SyncContext, now: Date): Date {
  const start = ctx.config.initialStart;
  return floorToSecond("at" in start ? start.at : new Date(now.getTime() - start.agoMs));
}

/**
 * Where this run reads: an explicit range, or [watermark − lookback | initial start, now). Never
 * past now: a window ahead of now reads nothing yet, and committing it would move the watermark
 * past records that have not happened, so no later run would read them.
 *
 * `fromDrifts`: the start is watermark − lookback, which moves from run to run (an explicit
 * `--from` or RECONCILER_START is where reading must begin, and stays put). `toIsNow`: the end is
 * the clock, which moves too (an explicit `--to` before now stays put).
 */
function runRange(ctx: SyncContext, opts: SyncOptions, watermark: Date | null, now: Date) {
  const end = floorToSecond(now);
  const to = opts.to ? new Date(Math.min(ceilToSecond(opts.to).getTime(), end.getTime())) : end;
  let from: Date;
  let fromDrifts = false;
  if (opts.from) from = opts.from;
  else if (watermark) {
    from = new Date(watermark.getTime() - ctx.config.lookbackMs);
    fromDrifts = true;
  } else from = initialStartOf(ctx, now);
  return { from: floorToSecond(from), to, fromDrifts, toIsNow: to.getTime() === end.getTime() };
}

/**
 * The bounds a window is recorded under in sync_windows (and recognised by when read again):
 * the read window with an end the run did not choose (watermark − lookback, now) widened to the
 * window boundaries around it, so a window has the same bounds in every run. Bounds a person
 * set (`--from/--to`, RECONCILER_START) stay as they are.
 */
function recordedBounds(
  window: TimeWindow,
  range: ReturnType<typeof runRange>,
  windowMs: number,
): TimeWindow {
  const first = window.start.getTime() === range.from.getTime();
  const last = window.end.getTime() === range.to.getTime();
  return {
    start: first && range.fromDrifts ? alignDown(window.start, windowMs) : window.start,
    end: last && range.toIsNow ? alignUp(window.end, windowMs) : window.end,
  };
}

export const boundsKey = (window: TimeWindow) =>
  `${window.start.getTime()}/${window.end.getTime()}`;

interface PlannedWindow {
  /** What is read. */
  read: TimeWindow;
  /** The bounds it is recorded under in sync_windows (and recognised by when read again). */
  recorded: TimeWindow;
  /** Read from its recorded start: a failed window of earlier runs with these bounds is read. */
  whole: boolean;
}

interface StreamPlan {
  from: Date;
  to: Date;
  windows: PlannedWindow[];
  /** Failed windows of earlier runs this run reads again (those it reads whole anyway left out). */
  retries: RetryWindow[];
  movesWatermark: boolean;
}

/** Plans the run from the stream's watermark and its recorded failed windows, as of `now`. */
export function planStreamRun(
  ctx: SyncContext,
  opts: SyncOptions,
  state: { watermark: Date | null; recordedRetries: readonly RetryWindow[]; now: Date },
): StreamPlan {
  const { watermark, now } = state;
  const windowMs = ctx.config.windowMs;
  const range = runRange(ctx, opts, watermark, now);
  const { from, to } = range;
  const windows = splitWindows(from, to, windowMs).map((read) => {
    const recorded = recordedBounds(read, range, windowMs);
    // A window read from its recorded start reads all of it there is: what lies past its read
    // end lies past now, so past the watermark, where the next run reads anyway.
    return { read, recorded, whole: read.start.getTime() === recorded.start.getTime() };
  });
  // A failed window this run reads whole anyway is not read twice: the run's own window
  // marks it done when it commits.
  const readWhole = new Set(windows.filter((w) => w.whole).map((w) => boundsKey(w.recorded)));
  const retries = state.recordedRetries.filter((r) => !readWhole.has(boundsKey(r)));
  // The watermark moves only when this run's range joins what is already committed (with
  // none yet, when it starts at RECONCILER_START); any other range is read as a backfill,
  // or the next run would start past what lies between.
  const joinsAt = watermark ?? initialStartOf(ctx, now);
  return { from, to, windows, retries, movesWatermark: !opts.backfill && from <= joinsAt };
}
