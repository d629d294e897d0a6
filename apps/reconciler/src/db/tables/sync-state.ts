// The sync's own state: a watermark per stream, one row per run, and windows to read again.
import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { time } from "./column-types";

/** Per stream, the end of the last committed window; it only ever moves forward. */
export const syncWatermarks = pgTable("sync_watermarks", {
  /** Stream name, e.g. card_transactions, operate_records. */
  stream: text("stream").primaryKey(),
  /** End (exclusive) of the last window whose rows committed with it. */
  watermark: time("watermark").notNull(),
  updatedAt: time("updated_at").notNull().defaultNow(),
});

/**
 * Per stream, the last record the follow-up of records still P read (its time and key): the
 * next run's follow-up starts after it and wraps around, so with more pending records than a run
 * follows, each is read in turn instead of the oldest every time.
 */
export const syncFollowCursors = pgTable("sync_follow_cursors", {
  stream: text("stream").primaryKey(),
  /** The record's time (transaction, operate or create time) and key (its id). */
  afterTime: time("after_time").notNull(),
  afterKey: text("after_key").notNull(),
  updatedAt: time("updated_at").notNull().defaultNow(),
});

/** One row per run of a stream (sync, backfill, scheduled tick, webhook batch). */
export const syncRuns = pgTable(
  "sync_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    stream: text("stream").notNull(),
    /** sync | backfill | schedule | webhook. */
    kind: text("kind").notNull(),
    startedAt: time("started_at").notNull().defaultNow(),
    /** Null while the run is going (or when its process died). */
    finishedAt: time("finished_at"),
    /** ok | failed | partial (some windows left to retry); null while running. */
    outcome: text("outcome"),
    /** Windows committed, pages fetched, records received. */
    windows: integer("windows").notNull().default(0),
    pages: integer("pages").notNull().default(0),
    recordsSeen: integer("records_seen").notNull().default(0),
    /** Upsert outcome counts, summed over the run. */
    inserted: integer("inserted").notNull().default(0),
    updated: integer("updated").notNull().default(0),
    unchanged: integer("unchanged").notNull().default(0),
    skippedDowngrades: integer("skipped_downgrades").notNull().default(0),
    /** What went wrong, redacted: never a secret, key or card number. */
    error: text("error"),
  },
  (t) => [
    check("sync_runs_kind_check", sql`${t.kind} in ('sync', 'backfill', 'schedule', 'webhook')`),
    check("sync_runs_outcome_check", sql`${t.outcome} in ('ok', 'failed', 'partial')`),
    index("sync_runs_stream_started_idx").on(t.stream, t.startedAt),
  ],
);

/**
 * Windows that failed or drifted (totals changed while paging) and must be read again. A window
 * is never dropped: it is retried on every run until it is read, or until a person gives it up
 * (`reconciler windows give-up`), which records who, when and why.
 */
export const syncWindows = pgTable(
  "sync_windows",
  {
    /** A short handle for people (`reconciler windows give-up ID`). */
    id: bigint("id", { mode: "number" }).generatedAlwaysAsIdentity().notNull(),
    stream: text("stream").notNull(),
    /** Window start (inclusive) and end (exclusive). */
    windowStart: time("window_start").notNull(),
    windowEnd: time("window_end").notNull(),
    /**
     * failed (an error) | drifted (page drift) | done (read again successfully) | given_up (a
     * person decided the window will not be read; given_up_by/_reason/_at say who and why).
     */
    state: text("state").notNull(),
    /** Failed reads so far. */
    attempts: integer("attempts").notNull().default(0),
    /** The last error, redacted. */
    lastError: text("last_error"),
    firstFailedAt: time("first_failed_at").notNull().defaultNow(),
    updatedAt: time("updated_at").notNull().defaultNow(),
    givenUpBy: text("given_up_by"),
    givenUpReason: text("given_up_reason"),
    givenUpAt: time("given_up_at"),
  },
  (t) => [
    primaryKey({ columns: [t.stream, t.windowStart, t.windowEnd] }),
    check("sync_windows_state_check", sql`${t.state} in ('failed', 'drifted', 'done', 'given_up')`),
    check(
      "sync_windows_given_up_check",
      sql`${t.state} <> 'given_up' or (${t.givenUpBy} is not null and ${t.givenUpReason} is not null)`,
    ),
    uniqueIndex("sync_windows_id_idx").on(t.id),
    index("sync_windows_unread_idx")
      .on(t.stream, t.windowStart)
      .where(sql`${t.state} in ('failed', 'drifted')`),
  ],
);
