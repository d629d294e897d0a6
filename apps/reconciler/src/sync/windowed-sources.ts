// What differs between the time-windowed streams: how a window's pages are asked for, and
// which of commitWindow's record lists its records fill. The runner (windowed-stream.ts) is the
// same for all; a new windowed stream is one entry here plus its table and upsert spec.
import type { Page } from "@merchantkit/core";
import { sql } from "drizzle-orm";
import { queryRows } from "../db/query-rows";
import type { CommitWindowInput } from "../store/commit-window";
import type { SyncContext, WindowedStreamName } from "./sync-types";
import type { TimeWindow } from "./windows";

interface WindowedSource {
  /** A window's pages, fresh from page 1 on every call. */
  pages: (ctx: SyncContext, window: TimeWindow) => AsyncIterable<Page<unknown>>;
  /** The window's records as commitWindow takes them. */
  rows: (records: unknown[]) => CommitWindowInput["records"];
  /**
   * Records still pending that were created before `before` (where this run's windows start),
   * read one by one so they are followed to their final state however late it comes: which
   * keys, and how one is read.
   */
  pending?: {
    keys: (ctx: SyncContext, before: Date) => Promise<string[]>;
    read: (ctx: SyncContext, key: string) => Promise<unknown>;
  };
}

const PAGE_SIZE = 100;

/** The issuing area's inclusive whole-second filter for [start, end), in epoch seconds. */
function issuingFilter(window: TimeWindow) {
  return {
    startTime: window.start.getTime() / 1000,
    endTime: window.end.getTime() / 1000 - 1,
    pageSize: PAGE_SIZE,
  };
}

/** "YYYY-MM-DD HH:mm:ss" in UTC, the payout area's time (docs/assumptions.md). */
const payoutTime = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace("T", " ");

/** The payout area's inclusive create-time filter for [start, end). */
function payoutFilter(window: TimeWindow) {
  return {
    createTimeStartTime: payoutTime(window.start.getTime()),
    createTimeEndTime: payoutTime(window.end.getTime() - 1000),
    size: PAGE_SIZE,
  };
}

/** Payouts followed per run at most, the longest pending first (the rest on later runs). */
const PENDING_PAYOUTS_PER_RUN = 1_000;

/** Payouts still P created before `before`, the longest pending first. */
async function pendingPayoutIds(ctx: SyncContext, before: Date): Promise<string[]> {
  const rows = await queryRows<{ payout_id: string }>(
    ctx.db,
    sql`SELECT payout_id FROM payouts WHERE payout_status = 'P'
      AND create_time < ${before.toISOString()}::timestamptz
      ORDER BY create_time, payout_id LIMIT ${PENDING_PAYOUTS_PER_RUN}`,
  );
  return rows.map((r) => r.payout_id);
}

export const WINDOWED_SOURCES: Record<WindowedStreamName, WindowedSource> = {
  card_transactions: {
    pages: (ctx, window) => ctx.issuing.transactions.list(issuingFilter(window)).pages(),
    rows: (records) => ({ cardTransactions: records as never }),
  },
  operate_records: {
    pages: (ctx, window) => ctx.issuing.operateRecords.list(issuingFilter(window)).pages(),
    rows: (records) => ({ operateRecords: records as never }),
  },
  payouts: {
    pages: (ctx, window) => ctx.payout.transfers.list(payoutFilter(window)).pages(),
    rows: (records) => ({ payouts: records as never }),
    pending: {
      keys: pendingPayoutIds,
      read: (ctx, payoutId) => ctx.payout.transfers.retrieve({ payoutId }),
    },
  },
};
