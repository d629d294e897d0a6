// commitWindow: a window's rows and its stream's watermark, in one transaction.
import type { Db } from "../db/database";
import { type AccountTransactionInput, upsertAccountTransactions } from "./account-transactions";
import { type CardTransactionInput, upsertCardTransactions } from "./card-transactions";
import { ACCOUNT_TRANSACTION_IDS, maskRecordCardData } from "./mask-record";
import { type OperateRecordInput, upsertOperateRecords } from "./operate-records";
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
 * receiver masks it (mask-record.ts): no column, raw copy or version holds a card number.
 */
export async function commitWindow(db: Db, input: CommitWindowInput): Promise<CommitWindowResult> {
  const opts = { source: input.source ?? "sync", batchSize: input.batchSize } as const;
  const cardTransactions = input.records.cardTransactions?.map((r) => maskRecordCardData(r));
  const operateRecords = input.records.operateRecords?.map((r) => maskRecordCardData(r));
  const accountTransactions = input.records.accountTransactions?.map((r) =>
    maskRecordCardData(r, ACCOUNT_TRANSACTION_IDS),
  );
  return db.transaction(async (tx) => {
    let counts = emptyCounts();
    if (cardTransactions?.length)
      counts = addCounts(counts, await upsertCardTransactions(tx, cardTransactions, opts));
    if (operateRecords?.length)
      counts = addCounts(counts, await upsertOperateRecords(tx, operateRecords, opts));
    if (accountTransactions?.length)
      counts = addCounts(counts, await upsertAccountTransactions(tx, accountTransactions, opts));
    if (input.window) await markWindowDone(tx, { stream: input.stream, ...input.window });
    const watermark = input.watermark
      ? await advanceWatermark(tx, input.stream, input.watermark)
      : await readWatermark(tx, input.stream);
    return { counts, watermark };
  });
}
