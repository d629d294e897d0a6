// The webhook dedupe store: one row per issuing push request_id.
import { sql } from "drizzle-orm";
import { check, integer, pgTable, text } from "drizzle-orm/pg-core";
import { jsonbText, time } from "./column-types";

/** A push claimed (processing) or handled (done); a released claim deletes its row. */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    /** request_id of the push (64-bit digits in practice, any text accepted). */
    requestId: text("request_id").primaryKey(),
    /** event_type, e.g. issuing.cardTransactionEvent; null until the handler records it. */
    eventType: text("event_type"),
    /** First delivery seen. */
    receivedAt: time("received_at").notNull().defaultNow(),
    /** processing (claimed, handler running) | done (handled; later deliveries are acked). */
    state: text("state").notNull(),
    /** Last claim; a processing claim older than the takeover age may be claimed again. */
    claimedAt: time("claimed_at").notNull().defaultNow(),
    completedAt: time("completed_at"),
    /** Claims so far (1 + takeovers). */
    attempts: integer("attempts").notNull().default(1),
    /** The event as received (canonical JSON), recorded by the handler; may be null. */
    raw: jsonbText("raw"),
  },
  (t) => [check("webhook_events_state_check", sql`${t.state} in ('processing', 'done')`)],
);
