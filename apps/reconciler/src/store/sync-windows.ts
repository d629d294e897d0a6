// Windows to read again: failed (an error) or drifted (records moved under paging), retried on
// every run until read or given up by a person.
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { syncWindows } from "../db/schema";
import { errorText } from "./error-text";

interface SyncWindow {
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

const UNREAD_STATES = ["failed", "drifted"] as const;

/**
 * The stream's windows still to read, oldest first: every failed or drifted window, however
 * often it failed before. A window is never dropped (only a person gives one up). Not a queue
 * claim: the stream lock already makes the caller the stream's only runner.
 */
export async function takeWindowsToRetry(
  db: Db,
  opts: { stream: string; limit?: number },
): Promise<RetryWindow[]> {
  const rows = await db
    .select()
    .from(syncWindows)
    .where(and(eq(syncWindows.stream, opts.stream), inArray(syncWindows.state, [...UNREAD_STATES])))
    .orderBy(asc(syncWindows.windowStart))
    .limit(opts.limit ?? 10_000);
  return rows.map(retryWindowOf);
}

const retryWindowOf = (r: typeof syncWindows.$inferSelect): RetryWindow => ({
  stream: r.stream,
  start: r.windowStart,
  end: r.windowEnd,
  state: r.state as RetryWindow["state"],
  attempts: r.attempts,
  lastError: r.lastError,
});

/** Per stream: windows still unread and the oldest one's start (what `status` reports). */
interface UnreadWindows {
  stream: string;
  windows: number;
  /** Start of the oldest unread window: data is missing since then. */
  since: Date | null;
  /** The most attempts any of them took. */
  maxAttempts: number;
}

export async function unreadWindows(db: Db, stream: string): Promise<UnreadWindows> {
  const [row] = await db
    .select({
      windows: sql<string>`count(*)`,
      since: sql<Date | null>`min(${syncWindows.windowStart})`.mapWith(syncWindows.windowStart),
      maxAttempts: sql<string>`coalesce(max(${syncWindows.attempts}), 0)`,
    })
    .from(syncWindows)
    .where(and(eq(syncWindows.stream, stream), inArray(syncWindows.state, [...UNREAD_STATES])));
  return {
    stream,
    windows: Number(row?.windows ?? 0),
    since: row?.since ?? null,
    maxAttempts: Number(row?.maxAttempts ?? 0),
  };
}

interface ListedWindow extends RetryWindow {
  id: number;
  firstFailedAt: Date;
  givenUp: { by: string; reason: string; at: Date } | null;
}

/** Windows a person may look at: unread ones, and with `all` the given-up ones too. */
export async function listWindows(db: Db, opts: { all?: boolean } = {}): Promise<ListedWindow[]> {
  const states = opts.all ? [...UNREAD_STATES, "given_up"] : [...UNREAD_STATES];
  const rows = await db
    .select()
    .from(syncWindows)
    .where(inArray(syncWindows.state, states))
    .orderBy(asc(syncWindows.stream), asc(syncWindows.windowStart));
  return rows.map((r) => ({
    id: r.id,
    ...retryWindowOf(r),
    firstFailedAt: r.firstFailedAt,
    givenUp:
      r.givenUpBy && r.givenUpReason && r.givenUpAt
        ? { by: r.givenUpBy, reason: r.givenUpReason, at: r.givenUpAt }
        : null,
  }));
}

/**
 * A person gives an unread window up: it is no longer read, and no longer counts as missing
 * data, with who, why and when on record. Answers false when no unread window has that id.
 */
export async function giveUpWindow(
  db: Db,
  opts: { id: number; by: string; reason: string },
): Promise<boolean> {
  const rows = await db
    .update(syncWindows)
    .set({
      state: "given_up",
      givenUpBy: opts.by,
      givenUpReason: opts.reason,
      givenUpAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(syncWindows.id, opts.id), inArray(syncWindows.state, [...UNREAD_STATES])))
    .returning({ id: syncWindows.id });
  return rows.length > 0;
}
