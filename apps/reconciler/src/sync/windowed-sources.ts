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
   * read one by one so they are followed to their final state however late it comes.
   */
  pending?: PendingFollow<unknown>;
}

/**
 * Which pending records to follow, and how one is read again: the record, or undefined when the
 * service no longer lists it (nothing to store; it is asked for again next run).
 */
interface PendingFollow<K> {
  keys(ctx: SyncContext, before: Date): Promise<K[]>;
  read(ctx: SyncContext, key: K): Promise<unknown>;
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

/** Records followed per stream and run at most, the longest pending first (the rest on later runs). */
const PENDING_PER_RUN = 1_000;

/** Payouts still P created before `before`, the longest pending first. */
async function pendingPayoutIds(ctx: SyncContext, before: Date): Promise<string[]> {
  const rows = await queryRows<{ payout_id: string }>(
    ctx.db,
    sql`SELECT payout_id FROM payouts WHERE payout_status = 'P'
      AND create_time < ${before.toISOString()}::timestamptz
      ORDER BY create_time, payout_id LIMIT ${PENDING_PER_RUN}`,
  );
  return rows.map((r) => r.payout_id);
}

type PendingCardTransaction = {
  txn_order_no: string;
  card_id: string;
  /** transaction_time in whole epoch seconds, the issuing area's filter unit. */
  second: number;
};

/**
 * Card transactions still P (authorizations waiting to clear or expire, refunds waiting to
 * settle) from before `before`, the longest pending first. A card id stored masked (a webhook's
 * first word on the transaction) cannot be asked for; the next window that lists it stores digits.
 */
async function pendingCardTransactions(
  ctx: SyncContext,
  before: Date,
): Promise<PendingCardTransaction[]> {
  return queryRows<PendingCardTransaction>(
    ctx.db,
    sql`SELECT txn_order_no, card_id,
        floor(extract(epoch FROM transaction_time))::float8 AS second
      FROM card_transactions WHERE txn_status = 'P'
        AND transaction_time < ${before.toISOString()}::timestamptz AND card_id ~ '^[0-9]+$'
      ORDER BY transaction_time, txn_order_no LIMIT ${PENDING_PER_RUN}`,
  );
}

/**
 * One card transaction again. queryTxnList has no txnOrderNo filter, so this asks for its card
 * within its own second and picks it out: one page in practice.
 */
async function readCardTransaction(ctx: SyncContext, key: PendingCardTransaction) {
  const second = new Date(key.second * 1000);
  const window = { start: second, end: new Date(second.getTime() + 1000) };
  const list = ctx.issuing.transactions.list({ ...issuingFilter(window), cardId: key.card_id });
  for await (const txn of list) if (txn.txnOrderNo === key.txn_order_no) return txn;
  return undefined;
}

export const WINDOWED_SOURCES: Record<WindowedStreamName, WindowedSource> = {
  card_transactions: {
    pages: (ctx, window) => ctx.issuing.transactions.list(issuingFilter(window)).pages(),
    rows: (records) => ({ cardTransactions: records as never }),
    pending: {
      keys: pendingCardTransactions,
      read: readCardTransaction,
    },
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
      read: (ctx, payoutId: string) => ctx.payout.transfers.retrieve({ payoutId }),
    },
  },
};
