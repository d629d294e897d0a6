// commitWindow: a window's rows and its stream's watermark, in one transaction.
import type { Db } from "../db/database";
import { type AccountTransactionInput, upsertAccountTransactions } from "./account-transactions";
import { type CardTransactionInput, upsertCardTransactions } from "./card-transactions";
import { maskCardData } from "./mask-card-data";
import { type OperateRecordInput, upsertOperateRecords } from "./operate-records";
import { type PayoutInput, upsertPayouts } from "./payouts";
import { markWindowDone } from "./sync-windows";
import { addCounts, emptyCounts, type RecordSource, type UpsertCounts } from "./upsert-batch";
import { advanceWatermark, readWatermark } from "./watermarks";

export interface CommitWindowInput {
  stream: string;
  /** The window's records, of whichever types the stream reads. */
  records: {
    cardTransactions?: readonly CardTransactionInput[];
    operateRecords?: readonly OperateRecordInput[];
    accountTransactions?: readonly AccountTransactionInput[];
    payouts?: readonly PayoutInput[];
  };
  /**
   * The window's end: the stream's watermark moves there if that is later than the stored one.
   * Omit it for windows that do not extend the stream (a retried window, a key-driven fetch).
   */
  watermark?: Date | undefined;
  /** The window, when it was a re-read of a failed or drifted one: marked done with the rows. */
  window?: { start: Date; end: Date } | undefined;
  /** Default "sync". */
  source?: RecordSource | undefined;
  batchSize?: number | undefined;
}

export interface CommitWindowResult {
  counts: UpsertCounts;
  /** The stream's watermark after the commit (null if it has none yet). */
  watermark: Date | null;
}

/**
 * Writes the rows and moves the watermark in ONE transaction: after a crash at any point either
 * both are there or neither, so the window is simply read again (the upserts make that
 * harmless). The watermark never moves backwards. Card data is masked first, as the webhook
 * receiver masks it (mask-card-data.ts): no column, raw copy or version holds a card number.
 */
export async function commitWindow(db: Db, input: CommitWindowInput): Promise<CommitWindowResult> {
  const opts = { source: input.source ?? "sync", batchSize: input.batchSize } as const;
  // Masked as the receiver masks (so a pushed row and the sync's copy hash the same), cardId kept:
  // a queried record's cardId is the card's id. A record with nothing to mask is not copied.
  const { records } = input;
  const cardTransactions = records.cardTransactions?.map((r) => maskCardData(r, true));
  const operateRecords = records.operateRecords?.map((r) => maskCardData(r, true));
  const accountTransactions = records.accountTransactions?.map((r) => maskCardData(r, true));
  const payouts = records.payouts?.map((r) => maskCardData(r, true));
  return db.transaction(async (tx) => {
    let counts = emptyCounts();
    if (cardTransactions?.length)
      counts = addCounts(counts, await upsertCardTransactions(tx, cardTransactions, opts));
    if (operateRecords?.length)
      counts = addCounts(counts, await upsertOperateRecords(tx, operateRecords, opts));
    if (accountTransactions?.length)
      counts = addCounts(counts, await upsertAccountTransactions(tx, accountTransactions, opts));
    if (payouts?.length) counts = addCounts(counts, await upsertPayouts(tx, payouts, opts));
    if (input.window) await markWindowDone(tx, { stream: input.stream, ...input.window });
    const watermark = input.watermark
      ? await advanceWatermark(tx, input.stream, input.watermark)
      : await readWatermark(tx, input.stream);
    return { counts, watermark };
  });
}
