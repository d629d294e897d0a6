/**
 * Page-numbered lists, both shapes the service uses: issuing (pageNum/pageSize/totalPages/
 * totalRecords) and payout (current/size/total). A list call returns a PagePromise: `await` it
 * for one page, `for await` it for every record from that page on, `.pages()` for whole pages,
 * `.toArray({ limit })` for a bounded array.
 */
import { PageDriftError, RequestValidationError } from "../errors/local-errors";
import { isMerchantkitError } from "../errors/merchantkit-error";
import { RecentRecords } from "./recent-records";
import { RecordIterator } from "./record-iterator";

export interface Page<T> {
  records: T[];
  /** 1-based number of this page. */
  pageNum: number;
  pageSize: number;
  /** Total records across all pages, as the service counted them when serving this page. */
  totalRecords: number | undefined;
  totalPages: number | undefined;
  hasMore: boolean;
}

/** The issuing area's paged `data`. */
export interface IssuingPageData<T> {
  records: T[];
  pageNum?: number | undefined;
  current?: number | undefined;
  pageSize?: number | undefined;
  totalPages?: number | undefined;
  totalRecords?: number | undefined;
}

/** The payout area's paged `data`. */
export interface PayoutPageData<T> {
  records: T[];
  current?: number | undefined;
  size?: number | undefined;
  total?: number | undefined;
}

function hasMore(
  records: number,
  pageNum: number,
  pageSize: number,
  totalPages: number | undefined,
  totalRecords: number | undefined,
): boolean {
  if (records === 0) return false;
  if (totalPages !== undefined) return pageNum < totalPages;
  if (totalRecords !== undefined && pageSize > 0) return pageNum * pageSize < totalRecords;
  return records >= pageSize;
}

export function issuingPage<T>(
  data: IssuingPageData<T>,
  requested: { pageNum: number; pageSize: number },
): Page<T> {
  const pageNum = data.pageNum ?? data.current ?? requested.pageNum;
  const pageSize = data.pageSize ?? requested.pageSize;
  return {
    records: data.records,
    pageNum,
    pageSize,
    totalRecords: data.totalRecords,
    totalPages: data.totalPages,
    hasMore: hasMore(data.records.length, pageNum, pageSize, data.totalPages, data.totalRecords),
  };
}

/** `size: -1` asks for every record in one page, so such a page never has a next one. */
export function payoutPage<T>(
  data: PayoutPageData<T>,
  requested: { pageNum: number; pageSize: number },
): Page<T> {
  const pageNum = data.current ?? requested.pageNum;
  const pageSize = requested.pageSize === -1 ? -1 : (data.size ?? requested.pageSize);
  const totalPages = pageSize === -1 ? 1 : undefined;
  return {
    records: data.records,
    pageNum,
    pageSize,
    totalRecords: data.total,
    totalPages,
    hasMore:
      pageSize !== -1 && hasMore(data.records.length, pageNum, pageSize, totalPages, data.total),
  };
}

export interface PaginateOptions<T> {
  /** First page to fetch (1-based). */
  pageNum: number;
  pageSize: number;
  fetchPage: (pageNum: number) => PromiseLike<Page<T>>;
  /**
   * A record's identity. With it, a record seen on an earlier page is not yielded again when
   * records added under the iteration shift the pages (see the async iterator).
   */
  key?: ((record: T) => string) | undefined;
}

/** Record keys a `for await` remembers to skip repeats when a list grows under it. */
export const RECENT_RECORDS = 10_000;

/** `toArray` refuses more than this many records; iterate instead. */
export const TO_ARRAY_MAX = 10_000;

export class PagePromise<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  readonly #opts: PaginateOptions<T>;
  #first: Promise<Page<T>> | undefined;

  constructor(opts: PaginateOptions<T>) {
    this.#opts = opts;
  }

  #firstPage(): Promise<Page<T>> {
    this.#first ??= Promise.resolve(this.#opts.fetchPage(this.#opts.pageNum));
    return this.#first;
  }

  // biome-ignore lint/suspicious/noThenProperty: a PagePromise is awaited for its first page on purpose
  then<R1 = Page<T>, R2 = never>(
    onFulfilled?: ((value: Page<T>) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#firstPage().then(onFulfilled, onRejected);
  }

  catch<R = never>(
    onRejected?: ((reason: unknown) => R | PromiseLike<R>) | null,
  ): Promise<Page<T> | R> {
    return this.#firstPage().catch(onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<Page<T>> {
    return this.#firstPage().finally(onFinally);
  }

  /** Every page from the requested one to the last, one request at a time. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    let page = await this.#firstPage();
    let yielded = 0;
    for (;;) {
      yield page;
      if (!page.hasMore) return;
      yielded += page.records.length;
      page = await this.#laterPage(page.pageNum + 1, yielded);
    }
  }

  /** A page after the first: its failure says which page it was and what came before it. */
  async #laterPage(pageNum: number, recordsYielded: number): Promise<Page<T>> {
    try {
      return await this.#opts.fetchPage(pageNum);
    } catch (error) {
      throw atPage(error, pageNum, recordsYielded);
    }
  }

  /**
   * Every record from the requested page on. With a `key`, records that new ones pushed onto
   * the next page are not yielded twice. A repeat needs a record added ahead of it, so it can
   * only be one of the last d records yielded when a page reports d more records than the page
   * before; the keys of the last RECENT_RECORDS are held for that, and a list that grows by
   * more between two pages ends the iteration with a PageDriftError rather than risk a repeat.
   * A list that shrinks between two pages ends it with a PageDriftError too, key or not:
   * records behind the removed ones moved onto pages already read and would be skipped.
   * (A Set of every key seen cost more CPU than the rest of the paging and grew without bound
   * on long reads; holding the records themselves instead of keys kept them alive past the
   * young generation, which cost even more in GC.)
   */
  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return new RecordIterator(this.#freshPages());
  }

  /** Each page's records less the repeats, as described above. */
  async *#freshPages(): AsyncGenerator<readonly T[], void, undefined> {
    const recent = new RecentRecords<string>(RECENT_RECORDS);
    let page = await this.#firstPage();
    let previous: Page<T> | undefined;
    let yielded = 0;
    for (;;) {
      const records = this.#fresh(page, previous, recent, yielded);
      yield records;
      yielded += records.length;
      if (!page.hasMore) return;
      previous = page;
      page = await this.#laterPage(page.pageNum + 1, yielded);
    }
  }

  /** `page`'s records less those `recent` shows were yielded already; throws on drift. */
  #fresh(
    page: Page<T>,
    previous: Page<T> | undefined,
    recent: RecentRecords<string>,
    yielded: number,
  ): readonly T[] {
    const { key } = this.#opts;
    const change =
      previous?.totalRecords === undefined || page.totalRecords === undefined
        ? undefined
        : page.totalRecords - previous.totalRecords;
    // Fewer records: those behind the removed ones moved onto pages already read, and which
    // they are cannot be known, so the iteration stops rather than skip them silently.
    if (change !== undefined && change < 0)
      throw atPage(new PageDriftError(change, recent.capacity), page.pageNum, yielded);
    if (!key) return page.records;
    // Unknown totals: compare with everything still held.
    const grown = previous === undefined ? 0 : (change ?? recent.capacity);
    if (grown <= 0) {
      // Nothing can repeat: the page's own array is handed out, not a copy.
      for (const record of page.records) recent.add(key(record));
      return page.records;
    }
    if (change !== undefined && !recent.holdsLast(grown))
      throw atPage(new PageDriftError(grown, recent.capacity), page.pageNum, yielded);
    const repeats = new Set(recent.last(grown));
    const fresh: T[] = [];
    for (const record of page.records) {
      const k = key(record);
      if (repeats.has(k)) continue;
      recent.add(k);
      fresh.push(record);
    }
    return fresh;
  }

  /** Up to `limit` records (at most 10,000) from the requested page on. */
  async toArray(opts: { limit: number }): Promise<T[]> {
    const limit = opts?.limit;
    if (!Number.isInteger(limit) || limit < 1 || limit > TO_ARRAY_MAX) {
      throw new RequestValidationError([
        {
          path: "limit",
          message: `must be an integer from 1 to ${TO_ARRAY_MAX}; iterate with for await for more`,
        },
      ]);
    }
    const out: T[] = [];
    for await (const record of this) {
      out.push(record);
      if (out.length >= limit) break;
    }
    return out;
  }
}

/**
 * `error`, which ended a list's iteration at `pageNum`, naming that page and the records yielded
 * before it (fields and message), so a caller knows where the read stopped. Only core's errors,
 * which stay of their type: the caller's own abort reason is handed back untouched.
 */
function atPage(error: unknown, pageNum: number, recordsYielded: number): unknown {
  if (!isMerchantkitError(error) || error.pageNum !== undefined) return error;
  Object.assign(error, { pageNum, recordsYielded });
  error.message += ` (page ${pageNum} of the list; ${recordsYielded} record${recordsYielded === 1 ? " was" : "s were"} yielded before it)`;
  return error;
}

export function paginate<T>(opts: PaginateOptions<T>): PagePromise<T> {
  return new PagePromise(opts);
}
