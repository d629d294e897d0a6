/**
 * One kind of issuing record (card transactions, operate records, 3DS deliveries) with the
 * indexes its query needs: everything sorted by time, plus one sorted list per value of each
 * immutable key (cardId, txnType...). A query picks the narrowest list, binary-searches the
 * window and slices the page; filters on mutable fields (status) scan the window once and the
 * matches are cached until a record changes, so paging through them stays cheap too.
 */
import { type Sequenced, SortedLog } from "./sorted-log";

export interface LogQuery<T> {
  fromMs: number;
  toMs: number;
  /** Immutable-key filters, e.g. { cardId: "…" }: each names an index of the log. */
  keys: Record<string, string | undefined>;
  /** A filter the indexes cannot answer (e.g. status), and a text naming it for the cache. */
  match?: { test: (item: T) => boolean; id: string } | undefined;
  pageNum: number;
  pageSize: number;
}

export interface LogPage<T> {
  total: number;
  items: T[];
}

const CACHE_SIZE = 16;

export class RecordLog<T extends Sequenced> {
  readonly all: SortedLog<T>;
  readonly #timeOf: (item: T) => number;
  readonly #keyOf: Record<string, (item: T) => string | undefined>;
  readonly #indexes = new Map<string, Map<string, SortedLog<T>>>();
  readonly #cache = new Map<string, { version: number; matches: T[] }>();
  #version = 0;

  constructor(timeOf: (item: T) => number, keyOf: Record<string, (item: T) => string | undefined>) {
    this.#timeOf = timeOf;
    this.#keyOf = keyOf;
    this.all = new SortedLog(timeOf);
    for (const name of Object.keys(keyOf)) this.#indexes.set(name, new Map());
  }

  get size(): number {
    return this.all.length;
  }

  insert(item: T): void {
    this.all.insert(item);
    for (const [name, keyOf] of Object.entries(this.#keyOf)) {
      const key = keyOf(item);
      if (key !== undefined) this.#list(name, key).insert(item);
    }
    this.#version++;
  }

  /** Replaces everything with records already sorted by (time, seq). */
  load(sorted: T[]): void {
    this.all.load(sorted);
    for (const [name, keyOf] of Object.entries(this.#keyOf)) {
      const index = new Map<string, SortedLog<T>>();
      this.#indexes.set(name, index);
      for (const item of sorted) {
        const key = keyOf(item);
        if (key === undefined) continue;
        let list = index.get(key);
        if (!list) {
          list = new SortedLog(this.#timeOf);
          index.set(key, list);
        }
        list.items.push(item);
      }
    }
    this.#version++;
  }

  /** Call when a record's mutable fields change, so cached filter results are recomputed. */
  changed(): void {
    this.#version++;
  }

  page(q: LogQuery<T>): LogPage<T> {
    // The narrowest index among the key filters; the other keys become a scan filter.
    let base = this.all;
    let baseName: string | undefined;
    for (const [name, value] of Object.entries(q.keys)) {
      if (value === undefined) continue;
      const list = this.#indexes.get(name)?.get(value);
      if (!list) return { total: 0, items: [] };
      if (baseName === undefined || list.length < base.length) {
        base = list;
        baseName = name;
      }
    }
    const [from, to] = base.window(q.fromMs, q.toMs);
    const extra = Object.entries(q.keys).filter(([n, v]) => v !== undefined && n !== baseName);
    const skip = (q.pageNum - 1) * q.pageSize;
    if (extra.length === 0 && !q.match) {
      const start = Math.min(from + skip, to);
      return { total: to - from, items: base.items.slice(start, Math.min(start + q.pageSize, to)) };
    }
    const matches = this.#matches(base, baseName, from, to, extra, q);
    return { total: matches.length, items: matches.slice(skip, skip + q.pageSize) };
  }

  #matches(
    base: SortedLog<T>,
    baseName: string | undefined,
    from: number,
    to: number,
    extra: [string, string | undefined][],
    q: LogQuery<T>,
  ): T[] {
    const id = `${baseName}=${baseName ? q.keys[baseName] : ""}|${extra.map(([n, v]) => `${n}=${v}`).join(",")}|${q.match?.id ?? ""}|${q.fromMs}|${q.toMs}`;
    const hit = this.#cache.get(id);
    if (hit && hit.version === this.#version) return hit.matches;
    const tests = extra.map(([name, value]) => {
      const keyOf = this.#keyOf[name] as (item: T) => string | undefined;
      return (item: T) => keyOf(item) === value;
    });
    if (q.match) tests.push(q.match.test);
    const matches: T[] = [];
    const items = base.items;
    for (let i = from; i < to; i++) {
      const item = items[i] as T;
      if (tests.every((t) => t(item))) matches.push(item);
    }
    this.#cache.delete(id);
    this.#cache.set(id, { version: this.#version, matches });
    if (this.#cache.size > CACHE_SIZE) {
      const oldest = this.#cache.keys().next().value;
      if (oldest !== undefined) this.#cache.delete(oldest);
    }
    return matches;
  }

  #list(name: string, key: string): SortedLog<T> {
    const index = this.#indexes.get(name) as Map<string, SortedLog<T>>;
    let list = index.get(key);
    if (!list) {
      list = new SortedLog(this.#timeOf);
      index.set(key, list);
    }
    return list;
  }
}
