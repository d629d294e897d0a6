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

/** A card transaction or card operation still P, as the issuing lists can find it again. */
type PendingIssuingRecord = {
  id: string;
  card_id: string;
  /** Its time in whole epoch seconds, the unit of the issuing lists' time filter. */
  second: number;
};

/**
 * Records of an issuing table still P from before `before`, the longest pending first: card
 * transactions (authorizations waiting to clear or expire, refunds waiting to settle) and card
 * operations. A card id stored masked (a webhook's first word on the record) cannot be asked
 * for; the next window that lists the record stores its digits.
 */
function pendingIssuingRecords(table: {
  name: string;
  id: string;
  status: string;
  time: string;
}): PendingFollow<PendingIssuingRecord>["keys"] {
  const { name, id, status, time } = table;
  return (ctx, before) =>
    queryRows<PendingIssuingRecord>(
      ctx.db,
      sql`SELECT ${sql.raw(id)} AS id, card_id,
          floor(extract(epoch FROM ${sql.raw(time)}))::float8 AS second
        FROM ${sql.raw(name)} WHERE ${sql.raw(status)} = 'P'
          AND ${sql.raw(time)} < ${before.toISOString()}::timestamptz AND card_id ~ '^[0-9]+$'
        ORDER BY ${sql.raw(time)}, ${sql.raw(id)} LIMIT ${PENDING_PER_RUN}`,
    );
}

/**
 * One issuing record again. The lists have no filter on the record's own id, so this asks for
 * its card within its own second and picks it out: one page in practice.
 */
async function findInSecond<R>(
  list: (filter: ReturnType<typeof issuingFilter> & { cardId: string }) => AsyncIterable<R>,
  idOf: (record: R) => string,
  key: PendingIssuingRecord,
): Promise<R | undefined> {
  const start = new Date(key.second * 1000);
  const filter = issuingFilter({ start, end: new Date(start.getTime() + 1000) });
  for await (const record of list({ ...filter, cardId: key.card_id }))
    if (idOf(record) === key.id) return record;
  return undefined;
}

export const WINDOWED_SOURCES: Record<WindowedStreamName, WindowedSource> = {
  card_transactions: {
    pages: (ctx, window) => ctx.issuing.transactions.list(issuingFilter(window)).pages(),
    rows: (records) => ({ cardTransactions: records as never }),
    pending: {
      keys: pendingIssuingRecords({
        name: "card_transactions",
        id: "txn_order_no",
        status: "txn_status",
        time: "transaction_time",
      }),
      read: (ctx, key: PendingIssuingRecord) =>
        findInSecond(
          (f) => ctx.issuing.transactions.list(f),
          (t) => t.txnOrderNo,
          key,
        ),
    },
  },
  operate_records: {
    pages: (ctx, window) => ctx.issuing.operateRecords.list(issuingFilter(window)).pages(),
    rows: (records) => ({ operateRecords: records as never }),
    pending: {
      keys: pendingIssuingRecords({
        name: "operate_records",
        id: "operate_record_id",
        status: "status",
        time: "operate_time",
      }),
      read: (ctx, key: PendingIssuingRecord) =>
        findInSecond(
          (f) => ctx.issuing.operateRecords.list(f),
          (r) => r.operateRecordId,
          key,
        ),
    },
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
