/**
 * Ids as the service hands them out: 64-bit integers beyond 2^53 (real samples look like
 * 1953712585351499776), so every client that parses them with plain JSON.parse breaks at once
 * in the sandbox rather than in production. Deterministic: the same seed gives the same ids.
 */
const BASE = 1_953_712_585_351_499_776n;

export class IdFactory {
  #next: bigint;

  constructor(seed = 0) {
    // Each seed gets its own range, so ids from two sandboxes do not collide by accident.
    this.#next = BASE + BigInt(seed % 1_000_000) * 1_000_000_000n;
  }

  /** The next id as a decimal string (ids are strings in app form). */
  next(): string {
    const id = this.#next;
    this.#next += 1n;
    return id.toString();
  }
}

/** A deterministic pseudo-random generator (mulberry32): same seed, same sequence. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
