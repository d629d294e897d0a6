/** The last `capacity` items added (record keys, for paging), oldest first, in a ring. */
export class RecentRecords<T> {
  readonly capacity: number;
  readonly #ring: T[] = [];
  #next = 0;
  /** Records ever added, including those the ring has dropped. */
  #added = 0;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  add(record: T): void {
    if (this.#ring.length < this.capacity) this.#ring.push(record);
    else this.#ring[this.#next] = record;
    this.#next = (this.#next + 1) % this.capacity;
    this.#added++;
  }

  /** True when the last `count` records are all still held. */
  holdsLast(count: number): boolean {
    return count <= this.#ring.length || this.#added <= this.#ring.length;
  }

  /** The last `count` records (fewer if fewer were ever added). */
  last(count: number): T[] {
    const n = Math.min(count, this.#ring.length);
    const out: T[] = new Array(n);
    // While the ring is filling, #next is its length, so this reads the plain array too.
    for (let i = 0; i < n; i++)
      out[i] = this.#ring[(this.#next - n + i + this.capacity) % this.capacity] as T;
    return out;
  }
}
