/**
 * Records kept in an array sorted by (time, seq), so a time window is two binary searches and a
 * page is a slice: the cost of a page does not grow with the number of records. A record's time
 * never changes (status changes keep its place); new records are appended (the usual case, time
 * = now) or inserted at their place.
 */
export interface Sequenced {
  /** Insertion order; ties on time are ordered by it (it follows the record id's order). */
  seq: number;
}

export class SortedLog<T extends Sequenced> {
  items: T[] = [];
  readonly #timeOf: (item: T) => number;

  constructor(timeOf: (item: T) => number) {
    this.#timeOf = timeOf;
  }

  get length(): number {
    return this.items.length;
  }

  insert(item: T): void {
    const items = this.items;
    const last = items[items.length - 1];
    const t = this.#timeOf(item);
    if (!last || this.#before(last, t, item.seq)) {
      items.push(item);
      return;
    }
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#before(items[mid] as T, t, item.seq)) lo = mid + 1;
      else hi = mid;
    }
    items.splice(lo, 0, item);
  }

  /** Replaces the contents with records already sorted by (time, seq). */
  load(sorted: T[]): void {
    this.items = sorted;
  }

  /** First index whose time is ≥ `ms`. */
  lowerBound(ms: number): number {
    const items = this.items;
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#timeOf(items[mid] as T) < ms) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The index range [from, to) of records with fromMs ≤ time ≤ toMs. */
  window(fromMs: number, toMs: number): [number, number] {
    if (toMs < fromMs) return [0, 0];
    const from = fromMs === Number.NEGATIVE_INFINITY ? 0 : this.lowerBound(fromMs);
    const to = toMs === Number.POSITIVE_INFINITY ? this.items.length : this.lowerBound(toMs + 1);
    return [from, Math.max(from, to)];
  }

  #before(item: T, t: number, seq: number): boolean {
    const it = this.#timeOf(item);
    return it < t || (it === t && item.seq < seq);
  }
}

/**
 * Sorts records by time in place, ties in their input order (the generator's, which is its
 * seq order). A million records: each (time, index) is packed into one 64-bit integer and the
 * typed array sorted natively, several times faster than a comparator over objects.
 */
export function sortByTime<T>(items: T[], timeOf: (item: T) => number): T[] {
  const n = items.length;
  if (n < 2) return items;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const item of items) {
    const t = timeOf(item);
    if (t < min) min = t;
    if (t > max) max = t;
  }
  const bits = Math.ceil(Math.log2(n + 1));
  if (!Number.isSafeInteger(max - min) || Math.log2(max - min + 1) + bits > 62) {
    const order = new Map(items.map((item, i) => [item, i]));
    return items.sort((a, b) => timeOf(a) - timeOf(b) || (order.get(a) ?? 0) - (order.get(b) ?? 0));
  }
  const shift = BigInt(bits);
  const keys = new BigInt64Array(n);
  for (let i = 0; i < n; i++) keys[i] = (BigInt(timeOf(items[i] as T) - min) << shift) | BigInt(i);
  keys.sort();
  const mask = (1n << shift) - 1n;
  const copy = items.slice();
  for (let i = 0; i < n; i++) items[i] = copy[Number((keys[i] as bigint) & mask)] as T;
  return items;
}
