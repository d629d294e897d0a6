// serviceIds revealed by other streams, for which account transactions must be fetched.
import { sql } from "drizzle-orm";
import { check, index, pgTable, text } from "drizzle-orm/pg-core";
import { time } from "./column-types";

/**
 * A serviceId to read account transactions for; due while fetched_at < revealed_at, and read
 * again at reread_at until its postings can no longer change.
 */
export const serviceIds = pgTable(
  "service_ids",
  {
    /** 64-bit id as digits: an operateRecordId or a payoutId. */
    serviceId: text("service_id").primaryKey(),
    /** Who revealed it first: operate_record | payout | ledger. */
    source: text("source").notNull(),
    firstSeenAt: time("first_seen_at").notNull().defaultNow(),
    /** Last time a change of the revealing record asked for a (new) fetch. */
    revealedAt: time("revealed_at").notNull().defaultNow(),
    /** Start of the last fetch that covered it; null = never fetched. */
    fetchedAt: time("fetched_at"),
    /**
     * Set when the service refused this id on its own (isolate-refused.ts): it counts as fetched
     * until the ledger entry naming it changes (revealed_at moves on), and is listed in
     * finance_parked_service_ids. A later successful fetch clears it.
     */
    parkedAt: time("parked_at"),
    /** The service's answer (or the SDK's check) that refused it. */
    parkedReason: text("parked_reason"),
    /** Start of the last fetch whose postings were new or changed; null = none found yet. */
    postingsChangedAt: time("postings_changed_at"),
    /**
     * When it is read again although nothing revealed it (a late posting, a refund credit): the
     * next step of the re-read schedule (RECONCILER_REREAD) after its last change, the later of
     * revealed_at and postings_changed_at. Null once the last step has passed (settled), or
     * while it is parked.
     */
    rereadAt: time("reread_at"),
    /**
     * Whose account movements it names: read with onBehalfOf this sub-merchant ('' for the
     * merchant itself); the entity of the record that revealed it first.
     */
    entity: text("entity").notNull().default(""),
  },
  (t) => [
    check("service_ids_source_check", sql`${t.source} in ('operate_record', 'payout', 'ledger')`),
    index("service_ids_due_idx")
      .on(t.revealedAt)
      .where(sql`${t.fetchedAt} is null or ${t.fetchedAt} < ${t.revealedAt}`),
    index("service_ids_reread_idx").on(t.rereadAt).where(sql`${t.rereadAt} is not null`),
  ],
);
