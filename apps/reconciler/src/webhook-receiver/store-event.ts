// One verified issuing push into the tables, through the same upserts as the sync (source
// "webhook"), with the event itself recorded on its dedupe row, in one transaction.
import type { IssuingWebhookEvent } from "@merchantkit/webhooks";
import type { Db } from "../db/database";
import { upsertCardTransactions } from "../store/card-transactions";
import type { PostgresDedupeStore } from "../store/dedupe-store";
import { upsertOperateRecords } from "../store/operate-records";
import { emptyCounts, type UpsertCounts } from "../store/upsert-batch";

/**
 * Stores the event's record (a card operation also queues its operateRecordId as a serviceId:
 * upsertOperateRecords does that in the same statement) and records the event on its
 * webhook_events row. An event type this version does not know is recorded, not stored.
 */
export async function storeWebhookEvent(
  db: Db,
  dedupe: PostgresDedupeStore,
  event: IssuingWebhookEvent,
): Promise<UpsertCounts> {
  return db.transaction(async (tx) => {
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
