// One verified payout result notification into `payouts`, through the payouts stream's own
// upsert (source "webhook"): the notification's record fields laid over the stored record.
import { transferRecord } from "@merchantkit/contract";
import { parseJson } from "@merchantkit/core";
import type { PayoutResultNotification } from "@merchantkit/webhooks";
import { sql } from "drizzle-orm";
import * as v from "valibot";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";
import { type PayoutInput, upsertPayouts } from "../store/payouts";
import { emptyCounts, type UpsertCounts } from "../store/upsert-batch";

/**
 * The fields of a payout record (txn/query, txn/queryList) that a notification may carry. The
 * notification's own fields (its `status` wording, `sign`) and fields neither codec knows are
 * not part of the record.
 */
const RECORD_FIELDS = Object.keys(transferRecord.shape) as (keyof PayoutInput)[];

const FINAL_OR_PENDING = new Set(["P", "S", "F"]);

/**
 * The record to store: the stored record (decoded from its canonical wire `raw`), or none, with
 * every record field the notification carries laid over it. A notification says nothing of
 * createTime or payoutMethod, so a queried row keeps them, and one that repeats the stored state
 * builds the stored record exactly (its canonical text, so its hash, is unchanged).
 */
function payoutRecordOf(
  stored: PayoutInput | undefined,
  notification: PayoutResultNotification,
): PayoutInput {
  const record: Record<string, unknown> = { ...stored };
  const fields = notification as Record<string, unknown>;
  for (const key of RECORD_FIELDS) {
    const value = fields[key];
    if (value !== undefined) record[key] = value;
  }
  return record as PayoutInput;
}

/** A stored `raw` (canonical wire JSON, 64-bit ids as bare numbers) as the payout record. */
function decodeStoredPayout(raw: string): PayoutInput {
  const result = v.safeParse(transferRecord.decode, parseJson(raw));
  if (!result.success)
    throw new Error(
      `the stored payout record does not decode: ${result.issues.map((i) => i.message).join("; ")}`,
    );
  return result.output;
}

type PayoutNotificationResult =
  | { stored: true; counts: UpsertCounts }
  /** Acknowledged but not stored: the payouts stream reads the payout (`reason` says why). */
  | { stored: false; counts: UpsertCounts; reason: string };

/**
 * Stores the notification's payout, in one transaction: the stored row is read and locked
 * (FOR UPDATE, so two copies of a notification handled at once are laid over the same state one
 * after the other), the record built (payoutRecordOf) and written by upsertPayouts, which is
 * idempotent (a record whose canonical text is unchanged writes nothing: `unchanged`), never sets
 * S or F back to P (`skippedDowngrades`), and re-queues the payoutId in service_ids when the
 * payout is new or changed, in its own statement. Each statement gets `timeoutMs` as its
 * statement_timeout, so a storing that waits on a lock fails (and the push is retried) before
 * the service's 10 s answer timeout.
 *
 * A notification whose status wording this version does not know (no P, S or F) is not stored:
 * there is no status to store, and the stream's next read of the payout has one.
 */
export async function storePayoutNotification(
  db: Db,
  notification: PayoutResultNotification,
  opts: { timeoutMs: number },
): Promise<PayoutNotificationResult> {
  const status = notification.payoutStatus;
  if (typeof status !== "string" || !FINAL_OR_PENDING.has(status))
    return {
      stored: false,
      counts: emptyCounts(),
      reason: `status ${JSON.stringify(notification.status ?? null)} is not one this version knows (success, failure, processing)`,
    };
  return db.transaction(async (tx) => {
    // SET takes no parameters; the value is a whole number of milliseconds (0 would mean none).
    const timeoutMs = Math.max(1, Math.ceil(opts.timeoutMs));
    await tx.execute(sql.raw(`SET LOCAL statement_timeout = ${timeoutMs}`));
    const [row] = await queryRows<{ raw: string }>(
      tx,
      sql`SELECT raw::text AS raw FROM payouts WHERE payout_id = ${notification.payoutId} FOR UPDATE`,
    );
    const stored = row ? decodeStoredPayout(row.raw) : undefined;
    const counts = await upsertPayouts(tx, [payoutRecordOf(stored, notification)], {
      source: "webhook",
    });
    return { stored: true, counts };
  });
}
