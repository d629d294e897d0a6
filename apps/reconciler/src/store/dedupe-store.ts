// PostgresDedupeStore: @merchantkit/webhooks' DedupeStore on the webhook_events table.
import type { ClaimResult, DedupeStore } from "@merchantkit/webhooks";
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";
import { canonicalWireText } from "./canonical-wire";

/**
 * How old a "processing" claim must be before another delivery may take it over: below the
 * service's retry interval (a push is retried every 15 s, 10 times), so when the receiver
 * handling a push died — killed, or its database connection dropped so that release() never
 * reached the server — the service's next retry claims the push again and stores it.
 */
export const DEFAULT_TAKEOVER_AFTER_MS = 10_000;

interface PostgresDedupeStoreOptions {
  /**
   * A claim still "processing" after this long is taken to belong to a receiver that died, and
   * the next delivery may claim it again (default 10 s, DEFAULT_TAKEOVER_AFTER_MS). A handler
   * cannot outlive it: recordEvent() refuses a claim older than this (see there).
   */
  takeoverAfterMs?: number;
}

/** recordEvent() found the claim taken over, or older than the takeover age: roll back. */
export class ClaimExpiredError extends Error {
  override readonly name = "ClaimExpiredError";
  constructor(requestId: string, takeoverAfterMs: number) {
    super(
      `the claim on webhook ${requestId} is older than ${takeoverAfterMs} ms or was taken over by another delivery; not stored by this one`,
    );
  }
}

/**
 * Deduplicates pushes by request_id across processes. claim() is one INSERT … ON CONFLICT, so
 * of two receivers claiming at once exactly one gets "claimed"; a push already done answers
 * "completed"; one being handled elsewhere answers "in_flight" (the service retries later).
 *
 * Why a short takeover age and not a claim tied to a database session: the claim must be
 * committed before the handler runs (DedupeStore's claim/complete/release are separate calls),
 * and holding a session (an advisory lock) per push for its whole handling would tie up a pool
 * connection per push in flight. Instead, a claim older than the takeover age (10 s) may be
 * taken over, which is safe because storing an event is idempotent (upserts by key that write
 * nothing, and no version row, for a record already stored alike), and a handler cannot commit
 * past that age: recordEvent(), the last statement of the storing transaction, checks that the
 * claim is still this store's and younger than the age, and fails (the transaction rolls back)
 * otherwise.
 */
export class PostgresDedupeStore implements DedupeStore {
  readonly #db: Db;
  readonly #takeoverAfterMs: number;
  /** The `attempts` of each claim this store holds: which claim is ours, if taken over. */
  readonly #claims = new Map<string, number>();

  constructor(db: Db, opts: PostgresDedupeStoreOptions = {}) {
    this.#db = db;
    this.#takeoverAfterMs = opts.takeoverAfterMs ?? DEFAULT_TAKEOVER_AFTER_MS;
    if (!Number.isFinite(this.#takeoverAfterMs) || this.#takeoverAfterMs < 0)
      throw new RangeError("takeoverAfterMs must be a non-negative number");
  }

  /** The age after which a "processing" claim may be taken over. */
  get takeoverAfterMs(): number {
    return this.#takeoverAfterMs;
  }

  async claim(id: string): Promise<ClaimResult> {
    // Twice at most: a row released (deleted) between the two statements is simply claimed.
    for (let attempt = 0; attempt < 2; attempt++) {
      const claimed = await queryRows<{ attempts: number | string }>(
        this.#db,
        sql`INSERT INTO webhook_events AS w (request_id, state, received_at, claimed_at, attempts)
          VALUES (${id}, 'processing', now(), now(), 1)
          ON CONFLICT (request_id) DO UPDATE SET claimed_at = now(), attempts = w.attempts + 1
            WHERE w.state = 'processing'
              AND w.claimed_at < now() - ${this.#takeoverAfterMs} * interval '1 millisecond'
          RETURNING attempts`,
      );
      const [mine] = claimed;
      if (mine) {
        this.#claims.set(id, Number(mine.attempts));
        return "claimed";
      }
      const [row] = await queryRows<{ state: string }>(
        this.#db,
        sql`SELECT state FROM webhook_events WHERE request_id = ${id}`,
      );
      if (row) return row.state === "done" ? "completed" : "in_flight";
    }
    return "in_flight";
  }

  async complete(id: string): Promise<void> {
    this.#claims.delete(id);
    await this.#db.execute(
      sql`INSERT INTO webhook_events AS w (request_id, state, completed_at)
        VALUES (${id}, 'done', now())
        ON CONFLICT (request_id) DO UPDATE SET state = 'done', completed_at = now()`,
    );
  }

  /**
   * Deletes the claim so that the next delivery runs the handler at once. Only this store's own
   * claim: one another delivery took over is left to it.
   */
  async release(id: string): Promise<void> {
    const attempts = this.#claims.get(id);
    this.#claims.delete(id);
    await this.#db.execute(
      attempts === undefined
        ? sql`DELETE FROM webhook_events WHERE request_id = ${id} AND state = 'processing'`
        : sql`DELETE FROM webhook_events
            WHERE request_id = ${id} AND state = 'processing' AND attempts = ${attempts}`,
    );
  }

  /**
   * Stores what the push was (event_type and the event, canonical JSON) on its claimed row.
   * Call it from the event handler, as the last statement of the transaction that upserts the
   * event's data: it rejects with ClaimExpiredError (roll the transaction back) when the claim
   * is gone, older than the takeover age (by the server's clock, now) or taken over by another
   * delivery, so no handler commits after its claim could be taken over. Its row lock also makes a
   * takeover wait until the transaction ends.
   */
  async recordEvent(db: Db, event: { requestId: string; eventType: string; event: unknown }) {
    const attempts = this.#claims.get(event.requestId);
    const ours = attempts === undefined ? sql`` : sql` AND attempts = ${attempts}`;
    const updated = await queryRows<{ request_id: string }>(
      db,
      sql`UPDATE webhook_events SET event_type = ${event.eventType},
          raw = ${canonicalWireText(event.event)}::jsonb
        WHERE request_id = ${event.requestId} AND state = 'processing'${ours}
          AND claimed_at > clock_timestamp() - ${this.#takeoverAfterMs} * interval '1 millisecond'
        RETURNING request_id`,
    );
    if (updated.length === 0) throw new ClaimExpiredError(event.requestId, this.#takeoverAfterMs);
  }
}
