// Windows to read again: failed (an error) or drifted (records moved under paging).
import { and, asc, eq, lt, ne, sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { syncWindows } from "../db/schema";
import { errorText } from "./error-text";

export interface SyncWindow {
  stream: string;
  /** Inclusive start and exclusive end. */
  start: Date;
  end: Date;
}

export interface RetryWindow extends SyncWindow {
  state: "failed" | "drifted";
  attempts: number;
  lastError: string | null;
}

function checkWindow(window: SyncWindow): void {
  const { start, end } = window;
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()) || start >= end)
    throw new RangeError("a window needs valid dates with start < end");
}

/** Records that a window must be read again; repeated calls count attempts. */
export async function markWindowFailed(
  db: Db,
  window: SyncWindow & { reason?: "failed" | "drifted"; error?: unknown },
): Promise<void> {
  checkWindow(window);
  const state = window.reason ?? "failed";
  const lastError = window.error === undefined ? null : errorText(window.error);
  await db
    .insert(syncWindows)
    .values({
      stream: window.stream,
      windowStart: window.start,
      windowEnd: window.end,
      state,
      attempts: 1,
      lastError,
    })
    .onConflictDoUpdate({
      target: [syncWindows.stream, syncWindows.windowStart, syncWindows.windowEnd],
      set: {
        state,
        attempts: sql`${syncWindows.attempts} + 1`,
        lastError,
        updatedAt: sql`now()`,
      },
    });
}

/** A re-read window succeeded (commitWindow calls this with its `window`). */
export async function markWindowDone(db: Db, window: SyncWindow): Promise<void> {
  await db
    .update(syncWindows)
    .set({ state: "done", updatedAt: sql`now()` })
    .where(
      and(
        eq(syncWindows.stream, window.stream),
        eq(syncWindows.windowStart, window.start),
        eq(syncWindows.windowEnd, window.end),
      ),
    );
}

/**
 * The stream's windows still to read again, oldest first. Not a queue claim: the stream lock
 * already makes the caller the stream's only runner. `maxAttempts` leaves out windows that
 * failed that often (the caller reports them; they stay listed in the table).
 */
export async function takeWindowsToRetry(
  db: Db,
  opts: { stream: string; limit?: number; maxAttempts?: number },
): Promise<RetryWindow[]> {
  const rows = await db
    .select()
    .from(syncWindows)
    .where(
      and(
        eq(syncWindows.stream, opts.stream),
        ne(syncWindows.state, "done"),
        opts.maxAttempts === undefined ? undefined : lt(syncWindows.attempts, opts.maxAttempts),
      ),
    )
    .orderBy(asc(syncWindows.windowStart))
    .limit(opts.limit ?? 100);
  return rows.map((r) => ({
    stream: r.stream,
    start: r.windowStart,
    end: r.windowEnd,
    state: r.state as RetryWindow["state"],
    attempts: r.attempts,
    lastError: r.lastError,
  }));
}
