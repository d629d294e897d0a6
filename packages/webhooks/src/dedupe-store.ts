/**
 * Deduplication of pushes by request_id. A delivery first claims its id: only one claimant runs
 * the handler; it completes the id on success, or releases it on failure so that the service's
 * retry runs the handler again. A push for an id already completed is acknowledged without
 * running the handler; one for an id in flight is asked to retry (acknowledging it could lose
 * the event if the first run then fails).
 */
export type ClaimResult = "claimed" | "completed" | "in_flight";

export interface DedupeStore {
  claim(id: string): ClaimResult | Promise<ClaimResult>;
  complete(id: string): void | Promise<void>;
  release(id: string): void | Promise<void>;
}

/**
 * In-process store remembering the last `max` completed ids (default 10,000). Enough for one
 * process; several processes share a database-backed store (the reconciler has a Postgres one).
 */
export class MemoryDedupeStore implements DedupeStore {
  readonly #max: number;
  readonly #completed = new Set<string>();
  readonly #inFlight = new Set<string>();

  constructor(opts: { max?: number } = {}) {
    this.#max = opts.max ?? 10_000;
    if (!Number.isInteger(this.#max) || this.#max < 1)
      throw new RangeError("max must be a positive integer");
  }

  claim(id: string): ClaimResult {
    if (this.#completed.has(id)) return "completed";
    if (this.#inFlight.has(id)) return "in_flight";
    this.#inFlight.add(id);
    return "claimed";
  }

  complete(id: string): void {
    this.#inFlight.delete(id);
    this.#completed.add(id);
    // A Set iterates in insertion order, so the first entry is the oldest.
    if (this.#completed.size > this.#max) {
      const oldest = this.#completed.values().next().value;
      if (oldest !== undefined) this.#completed.delete(oldest);
    }
  }

  release(id: string): void {
    this.#inFlight.delete(id);
  }
}
