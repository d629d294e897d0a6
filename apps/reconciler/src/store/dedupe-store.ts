// PostgresDedupeStore: @merchantkit/webhooks' DedupeStore on the webhook_events table.
import type { ClaimResult, DedupeStore } from "@merchantkit/webhooks";
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";
import { canonicalWireText } from "./canonical-wire";

export interface PostgresDedupeStoreOptions {
  /**
   * A claim still "processing" after this long is taken to belong to a receiver that crashed,
   * and the next delivery may claim it again (default 5 minutes; the service retries a push
   * every 15 s up to 10 times, so a shorter age lets a retry finish the work).
   */
  takeoverAfterMs?: number;
}

/**
 * Deduplicates pushes by request_id across processes. claim() is one INSERT … ON CONFLICT, so
 * of two receivers claiming at once exactly one gets "claimed"; a push already done answers
 * "completed"; one being handled elsewhere answers "in_flight" (the service retries later).
 */
export class PostgresDedupeStore implements DedupeStore {
  readonly #db: Db;
  readonly #takeoverAfterMs: number;

  constructor(db: Db, opts: PostgresDedupeStoreOptions = {}) {
    this.#db = db;
    this.#takeoverAfterMs = opts.takeoverAfterMs ?? 5 * 60_000;
    if (!Number.isFinite(this.#takeoverAfterMs) || this.#takeoverAfterMs < 0)
      throw new RangeError("takeoverAfterMs must be a non-negative number");
  }

  async claim(id: string): Promise<ClaimResult> {
    // Twice at most: a row released (deleted) between the two statements is simply claimed.
    for (let attempt = 0; attempt < 2; attempt++) {
      const claimed = await queryRows<{ request_id: string }>(
        this.#db,
        sql`INSERT INTO webhook_events AS w (request_id, state, received_at, claimed_at, attempts)
          VALUES (${id}, 'processing', now(), now(), 1)
          ON CONFLICT (request_id) DO UPDATE SET claimed_at = now(), attempts = w.attempts + 1
            WHERE w.state = 'processing'
              AND w.claimed_at < now() - ${this.#takeoverAfterMs} * interval '1 millisecond'
          RETURNING request_id`,
      );
      if (claimed.length > 0) return "claimed";
      const [row] = await queryRows<{ state: string }>(
        this.#db,
        sql`SELECT state FROM webhook_events WHERE request_id = ${id}`,
      );
      if (row) return row.state === "done" ? "completed" : "in_flight";
    }
    return "in_flight";
  }

  async complete(id: string): Promise<void> {
    await this.#db.execute(
      sql`INSERT INTO webhook_events AS w (request_id, state, completed_at)
        VALUES (${id}, 'done', now())
        ON CONFLICT (request_id) DO UPDATE SET state = 'done', completed_at = now()`,
    );
  }

  async release(id: string): Promise<void> {
    await this.#db.execute(
      sql`DELETE FROM webhook_events WHERE request_id = ${id} AND state = 'processing'`,
    );
  }

  /**
   * Stores what the push was (event_type and the event, canonical JSON) on its claimed row.
   * Call it from the event handler, ideally in the transaction that upserts the event's data.
   */
  async recordEvent(db: Db, event: { requestId: string; eventType: string; event: unknown }) {
    await db.execute(
      sql`UPDATE webhook_events SET event_type = ${event.eventType},
          raw = ${canonicalWireText(event.event)}::jsonb
        WHERE request_id = ${event.requestId}`,
    );
  }
}
