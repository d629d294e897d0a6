// One verified issuing push into the tables, through the same upserts as the sync (source
// "webhook"), with the event itself recorded on its dedupe row, in one transaction.
import type { IssuingWebhookEvent } from "@merchantkit/webhooks";
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";
import { upsertCardTransactions } from "../store/card-transactions";
import type { PostgresDedupeStore } from "../store/dedupe-store";
import { cardIdToCheck, maskCardData } from "../store/mask-card-data";
import { upsertOperateRecords } from "../store/operate-records";
import { emptyCounts, type UpsertCounts } from "../store/upsert-batch";

/** True when a card transaction or operation already names this card id. */
async function isKnownCard(db: Db, cardId: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`SELECT 1 FROM card_transactions WHERE card_id = ${cardId}
        UNION ALL SELECT 1 FROM operate_records WHERE card_id = ${cardId} LIMIT 1`,
  );
  return rows.length > 0;
}

/**
 * Stores the event's record (a card operation also queues its operateRecordId as a serviceId:
 * upsertOperateRecords does that in the same statement) and records the event on its
 * webhook_events row. An event type this version does not know is recorded, not stored. Card
 * data is masked first (mask-card-data.ts), so no column and no raw copy holds a card number.
 *
 * Bounded by the claim's takeover age (10 s by default): each statement gets it as its
 * statement_timeout, and recordEvent, the last one, rolls the transaction back (ClaimExpiredError)
 * when the claim is older than that or was taken over. A push whose handling died is then stored
 * by the service's next retry (15 s later) without two live handlers storing it at once; and when
 * they do meet (a takeover as a slow one commits) the upserts write nothing twice.
 */
export async function storeWebhookEvent(
  db: Db,
  dedupe: PostgresDedupeStore,
  received: IssuingWebhookEvent,
): Promise<UpsertCounts> {
  return db.transaction(async (tx) => {
    // SET takes no parameters; the value is a whole number of milliseconds (0 would mean none).
    const timeoutMs = Math.max(1, Math.ceil(dedupe.takeoverAfterMs));
    await tx.execute(sql.raw(`SET LOCAL statement_timeout = ${timeoutMs}`));
    const cardId = cardIdToCheck(received);
    const event = maskCardData(received, cardId !== undefined && (await isKnownCard(tx, cardId)));
    let counts = emptyCounts();
    if (event.kind === "cardTransaction")
      counts = await upsertCardTransactions(tx, [event.data], { source: "webhook" });
    else if (event.kind === "cardOperate")
      counts = await upsertOperateRecords(tx, [event.data], { source: "webhook" });
    const { kind: _, ...wire } = event;
    await dedupe.recordEvent(tx, {
      requestId: event.request_id,
      eventType: event.event_type,
      event: wire,
    });
    return counts;
  });
}
