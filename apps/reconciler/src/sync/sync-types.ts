// The sync's public shapes: stream names, the context a run needs, progress and summaries.
import type { AccountClient } from "@merchantkit/account";
import type { IssuingClient } from "@merchantkit/issuing";
import type { PayoutClient } from "@merchantkit/payout";
import type { ReconcilerConfig } from "../config/reconciler-config";
import type { Db } from "../db/database";
import type { Unread } from "../store/unread";
import type { UpsertCounts } from "../store/upsert-batch";

export type StreamName =
  | "card_transactions"
  | "operate_records"
  | "payouts"
  | "account_transactions";

/** Every stream, in the order a run starts them (account transactions need the others' ids). */
export const STREAM_NAMES: readonly StreamName[] = [
  "card_transactions",
  "operate_records",
  "payouts",
  "account_transactions",
];

/** The streams read by time window (the account stream is driven by service_ids). */
export type WindowedStreamName = Exclude<StreamName, "account_transactions">;

export function isStreamName(value: string): value is StreamName {
  return (STREAM_NAMES as readonly string[]).includes(value);
}

/** What a sync needs: the database, the clients (sharing one rate limiter), config, a log. */
export interface SyncContext {
  db: Db;
  issuing: IssuingClient;
  account: AccountClient;
  payout: PayoutClient;
  config: ReconcilerConfig;
  /** One structured line (JSON) per event; the CLI prints it or turns it into text on a TTY. */
  log: (line: string) => void;
}

export interface SyncOptions {
  /** Default: every stream. */
  streams?: StreamName[];
  /** An explicit range instead of [watermark − lookback, now). */
  from?: Date;
  to?: Date;
  /** Read [from, to) without moving watermarks; recorded as kind "backfill". */
  backfill?: boolean;
  /** Run kind recorded in sync_runs when not a backfill (default "sync"; `schedule` passes its own). */
  kind?: "sync" | "schedule";
  onProgress?: (p: SyncProgress) => void;
  /** Aborted: windows in flight finish and commit, no new one starts. */
  signal?: AbortSignal;
}

export interface SyncProgress {
  stream: StreamName;
  /** Windows (account transactions: batches of 100 serviceIds) planned and finished. */
  windowsTotal: number;
  windowsDone: number;
  pages: number;
  recordsSeen: number;
  elapsedMs: number;
}

/** ok: every window read; partial: some failed (retried next run) or the run was stopped. */
export type SyncOutcome = "ok" | "partial" | "failed";

/** What a stream's run did, its upserts' counts included. */
export interface StreamSummary extends UpsertCounts {
  /** busy: another worker holds the stream; nothing was read. */
  outcome: SyncOutcome | "busy";
  runId: string | undefined;
  windows: number;
  pages: number;
  recordsSeen: number;
  failedWindows: number;
  /**
   * Seconds between now and the stream's watermark after the run (account transactions: since
   * the oldest serviceId still waiting for a fetch was revealed; 0 when none waits). Null when
   * the stream has no watermark yet.
   */
  lagSeconds: number | null;
  /** Redacted reason of a failed or partial stream. */
  error: string | undefined;
  /**
   * What is left unread after the run (windows to read again, or serviceIds still due), and
   * since when; null when the run could not tell (the database was gone).
   */
  unread: Unread | null;
  /** account_transactions: serviceIds read again by the re-read schedule in this run. */
  serviceIdsReread?: number;
  /**
   * account_transactions: sub-merchants the service refused to let the merchant act for
   * (40003/40009) in this run; their due serviceIds are parked (finance_parked_service_ids).
   */
  entitiesRefused?: string[];
}

export interface SyncSummary {
  outcome: SyncOutcome;
  /**
   * Everything the streams left unread, summed, and the oldest since; null when a stream could
   * not tell (the database was gone: the outcome is then "failed").
   */
  unread: Unread | null;
  /** Stopped by the signal before every window was read. */
  interrupted: boolean;
  streams: Partial<Record<StreamName, StreamSummary>>;
  seconds: number;
}
