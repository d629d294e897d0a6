/**
 * The generic idempotency of the server: for an endpoint with an idempotency key, the first
 * successful answer is stored under (endpoint name, merchant, key) with a fingerprint of the
 * decoded params. The same key with the same params gets the stored answer again (no second
 * effect); with different params it is a duplicate. Failures are not stored, so a retry after
 * a failure is processed afresh. The store is bounded (oldest keys forgotten first), as the
 * service keeps keys for a limited time, so load tests with fresh keys cannot exhaust memory.
 */
export interface StoredAnswer {
  fingerprint: string;
  /** The whole response body as first sent. */
  text: string;
}

export type IdempotencyCheck =
  | { kind: "new" }
  | { kind: "replay"; text: string }
  | { kind: "conflict" };

export class IdempotencyStore {
  readonly #answers = new Map<string, StoredAnswer>();
  readonly #capacity: number;

  constructor(capacity = 100_000) {
    this.#capacity = capacity;
  }

  static key(endpointName: string, merchantNo: string, key: string): string {
    return `${endpointName}\u0000${merchantNo}\u0000${key}`;
  }

  check(key: string, fingerprint: string): IdempotencyCheck {
    const stored = this.#answers.get(key);
    if (!stored) return { kind: "new" };
    return stored.fingerprint === fingerprint
      ? { kind: "replay", text: stored.text }
      : { kind: "conflict" };
  }

  store(key: string, answer: StoredAnswer): void {
    this.#answers.set(key, answer);
    if (this.#answers.size > this.#capacity) {
      // A Map iterates in insertion order: the first key is the oldest.
      const oldest = this.#answers.keys().next().value;
      if (oldest !== undefined) this.#answers.delete(oldest);
    }
  }

  get size(): number {
    return this.#answers.size;
  }

  clear(): void {
    this.#answers.clear();
  }
}
