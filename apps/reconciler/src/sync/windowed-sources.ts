// What differs between the time-windowed streams: how a window's pages are asked for, and
// which of commitWindow's record lists its records fill. The runner (windowed-stream.ts) is the
// same for all; a new windowed stream is one entry here plus its table and upsert spec.
import type { Page } from "@merchantkit/core";
import type { CommitWindowInput } from "../store/commit-window";
import type { SyncContext, WindowedStreamName } from "./sync-types";
import type { TimeWindow } from "./windows";

export interface WindowedSource {
  /** A window's pages, fresh from page 1 on every call. */
  pages: (ctx: SyncContext, window: TimeWindow) => AsyncIterable<Page<unknown>>;
  /** The window's records as commitWindow takes them. */
  rows: (records: unknown[]) => CommitWindowInput["records"];
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
  },
};
