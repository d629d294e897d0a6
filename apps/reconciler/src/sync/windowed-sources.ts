// What differs between the time-windowed streams: how a window's pages are asked for, and
// which of commitWindow's record lists its records fill. The runner (windowed-stream.ts) is the
// same for all; a new windowed stream is one entry here plus its table and upsert spec.
import type { Page } from "@merchantkit/core";
import type { CommitWindowInput } from "../store/commit-window";
import type { PendingRow, PendingTable } from "../store/pending-follow";
import type { SyncContext, WindowedStreamName } from "./sync-types";
import type { TimeWindow } from "./windows";

interface WindowedSource {
  /** A window's pages, fresh from page 1 on every call. */
  pages: (ctx: SyncContext, window: TimeWindow) => AsyncIterable<Page<unknown>>;
  /** The window's records as commitWindow takes them. */
  rows: (records: unknown[]) => CommitWindowInput["records"];
  /**
   * Records still pending that were created before `before` (where this run's windows start),
   * read one by one so they are followed to their final state however late it comes: where
   * they are, and how one is read again (undefined when the service no longer lists it:
   * nothing to store, it is asked for again on a later run).
   */
  pending?: {
    table: PendingTable;
    read: (ctx: SyncContext, row: PendingRow) => Promise<unknown>;
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

/**
 * One issuing record again. The lists have no filter on the record's own id, so this asks for
 * its card within its own second and picks it out: one page in practice.
 */
async function findInSecond<R>(
  list: (filter: ReturnType<typeof issuingFilter> & { cardId: string }) => AsyncIterable<R>,
  idOf: (record: R) => string,
  row: PendingRow,
): Promise<R | undefined> {
  const start = new Date(Number(row.second) * 1000);
  const filter = issuingFilter({ start, end: new Date(start.getTime() + 1000) });
  for await (const record of list({ ...filter, cardId: row.card_id as string }))
    if (idOf(record) === row.id) return record;
  return undefined;
}

export const WINDOWED_SOURCES: Record<WindowedStreamName, WindowedSource> = {
  card_transactions: {
    pages: (ctx, window) => ctx.issuing.transactions.list(issuingFilter(window)).pages(),
    rows: (records) => ({ cardTransactions: records as never }),
    pending: {
      table: {
        name: "card_transactions",
        id: "txn_order_no",
        status: "txn_status",
        time: "transaction_time",
        cardId: "card_id",
      },
      read: (ctx, row) =>
        findInSecond(
          (f) => ctx.issuing.transactions.list(f),
          (t) => t.txnOrderNo,
          row,
        ),
    },
  },
  operate_records: {
    pages: (ctx, window) => ctx.issuing.operateRecords.list(issuingFilter(window)).pages(),
    rows: (records) => ({ operateRecords: records as never }),
    pending: {
      table: {
        name: "operate_records",
        id: "operate_record_id",
        status: "status",
        time: "operate_time",
        cardId: "card_id",
      },
      read: (ctx, row) =>
        findInSecond(
          (f) => ctx.issuing.operateRecords.list(f),
          (r) => r.operateRecordId,
          row,
        ),
    },
  },
  payouts: {
    pages: (ctx, window) => ctx.payout.transfers.list(payoutFilter(window)).pages(),
    rows: (records) => ({ payouts: records as never }),
    pending: {
      table: { name: "payouts", id: "payout_id", status: "payout_status", time: "create_time" },
      read: (ctx, row) => ctx.payout.transfers.retrieve({ payoutId: row.id }),
    },
  },
};
