import { describe, expect, it } from "vitest";
import {
  ConnectionError,
  isConnectionError,
  isPageDriftError,
  isRequestValidationError,
} from "../errors/local-errors";
import { issuingPage, type Page, paginate, payoutPage, RECENT_RECORDS } from "./paginate";
import { RecentRecords } from "./recent-records";

/** A list of `total` numbered records served in issuing shape, counting requests. */
function issuingSource(total: number, pageSize: number) {
  const calls: number[] = [];
  const all = Array.from({ length: total }, (_, i) => ({ id: String(i + 1) }));
  const fetchPage = async (pageNum: number): Promise<Page<{ id: string }>> => {
    calls.push(pageNum);
    const records = all.slice((pageNum - 1) * pageSize, pageNum * pageSize);
    return issuingPage(
      {
        records,
        pageNum,
        pageSize,
        totalRecords: all.length,
        totalPages: Math.ceil(all.length / pageSize),
      },
      { pageNum, pageSize },
    );
  };
  return { calls, fetchPage, all };
}

describe("paginate", () => {
  it("awaits to the first page only", async () => {
    const src = issuingSource(250, 100);
    const page = await paginate({ pageNum: 1, pageSize: 100, fetchPage: src.fetchPage });
    expect(page.records).toHaveLength(100);
    expect(page.hasMore).toBe(true);
    expect(src.calls).toEqual([1]);
  });

  it("iterates every record once, in order, stopping on the last page", async () => {
    const src = issuingSource(250, 100);
    const seen: string[] = [];
    for await (const r of paginate({ pageNum: 1, pageSize: 100, fetchPage: src.fetchPage }))
      seen.push(r.id);
    expect(seen).toEqual(src.all.map((r) => r.id));
    expect(src.calls).toEqual([1, 2, 3]);
  });

  it("does not ask for a page past an exact multiple", async () => {
    const src = issuingSource(200, 100);
    const pages: number[] = [];
    for await (const p of paginate({ pageNum: 1, pageSize: 100, fetchPage: src.fetchPage }).pages())
      pages.push(p.pageNum);
    expect(pages).toEqual([1, 2]);
    expect(src.calls).toEqual([1, 2]);
  });

  it("starts at the requested page", async () => {
    const src = issuingSource(250, 100);
    const got = await paginate({ pageNum: 3, pageSize: 100, fetchPage: src.fetchPage }).toArray({
      limit: 1000,
    });
    expect(got.map((r) => r.id)).toEqual(src.all.slice(200).map((r) => r.id));
  });

  it("toArray stops at the limit without fetching further pages, and refuses an unbounded limit", async () => {
    const src = issuingSource(250, 100);
    const list = paginate({ pageNum: 1, pageSize: 100, fetchPage: src.fetchPage });
    expect(await list.toArray({ limit: 150 })).toHaveLength(150);
    expect(src.calls).toEqual([1, 2]);
    await expect(list.toArray({ limit: 10_001 })).rejects.toSatisfy(isRequestValidationError);
    await expect(list.toArray({ limit: 0 })).rejects.toSatisfy(isRequestValidationError);
  });

  it("skips records already yielded when new ones push pages down (newest first)", async () => {
    // Each fetch inserts one new record at the head, shifting everything by one.
    let all = Array.from({ length: 6 }, (_, i) => ({ id: `r${6 - i}` }));
    let next = 7;
    const fetchPage = async (pageNum: number) => {
      const records = all.slice((pageNum - 1) * 2, pageNum * 2);
      const page = issuingPage(
        {
          records,
          pageNum,
          pageSize: 2,
          totalRecords: all.length,
          totalPages: Math.ceil(all.length / 2),
        },
        { pageNum, pageSize: 2 },
      );
      all = [{ id: `r${next++}` }, ...all];
      return page;
    };
    const seen: string[] = [];
    for await (const r of paginate({ pageNum: 1, pageSize: 2, fetchPage, key: (r) => r.id }))
      seen.push(r.id);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of ["r1", "r2", "r3", "r4", "r5", "r6"]) expect(seen).toContain(id);
  });

  it("yields records appended behind the cursor (oldest-first lists grow there)", async () => {
    // Oldest first: new records go to the end, so nothing shifts and nothing repeats.
    const all = Array.from({ length: 6 }, (_, i) => ({ id: `r${i + 1}` }));
    const fetchPage = async (pageNum: number) => {
      const page = issuingPage(
        {
          records: all.slice((pageNum - 1) * 2, pageNum * 2),
          pageNum,
          pageSize: 2,
          totalRecords: all.length,
        },
        { pageNum, pageSize: 2 },
      );
      if (all.length < 9) all.push({ id: `r${all.length + 1}` });
      return page;
    };
    const seen: string[] = [];
    for await (const r of paginate({ pageNum: 1, pageSize: 2, fetchPage, key: (r) => r.id }))
      seen.push(r.id);
    expect(seen).toEqual(["r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9"]);
  });

  it("ends with a PageDriftError when more records were added than it remembers", async () => {
    const pageSize = 100;
    const all = Array.from({ length: RECENT_RECORDS + 300 }, (_, i) => ({ id: `r${i}` }));
    const fetchPage = async (pageNum: number) => {
      // After more than RECENT_RECORDS were read, a burst bigger than that lands at the head.
      if (pageNum === RECENT_RECORDS / pageSize + 2) {
        for (let i = 0; i <= RECENT_RECORDS; i++) all.unshift({ id: `new${i}` });
      }
      return issuingPage(
        {
          records: all.slice((pageNum - 1) * pageSize, pageNum * pageSize),
          pageNum,
          pageSize,
          totalRecords: all.length,
        },
        { pageNum, pageSize },
      );
    };
    let seen = 0;
    const failure = await (async () => {
      for await (const _ of paginate({ pageNum: 1, pageSize, fetchPage, key: (r) => r.id })) seen++;
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isPageDriftError(failure)).toBe(true);
    expect((failure as { added: number }).added).toBe(RECENT_RECORDS + 1);
    expect(seen).toBe(RECENT_RECORDS + pageSize);
  });

  it("ends with a PageDriftError when the list shrinks between pages, instead of skipping records", async () => {
    // A filtered list (pending transactions): record r1, already yielded, leaves the filter
    // before page 2 is read, so r3 moves onto page 1 and page 2 starts at r4.
    let all = Array.from({ length: 6 }, (_, i) => ({ id: `r${i + 1}` }));
    const fetchPage = async (pageNum: number) => {
      if (pageNum === 2) all = all.slice(1);
      return issuingPage(
        {
          records: all.slice((pageNum - 1) * 2, pageNum * 2),
          pageNum,
          pageSize: 2,
          totalRecords: all.length,
          totalPages: Math.ceil(all.length / 2),
        },
        { pageNum, pageSize: 2 },
      );
    };
    for (const key of [(r: { id: string }) => r.id, undefined]) {
      all = Array.from({ length: 6 }, (_, i) => ({ id: `r${i + 1}` }));
      const seen: string[] = [];
      const failure = await (async () => {
        for await (const r of paginate({ pageNum: 1, pageSize: 2, fetchPage, key }))
          seen.push(r.id);
      })().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isPageDriftError(failure)).toBe(true);
      expect(failure).toMatchObject({ added: -1, pageNum: 2, recordsYielded: 2 });
      expect((failure as Error).message).toContain("removed");
      expect(seen).toEqual(["r1", "r2"]);
    }
  });

  it("names the page that failed and the records yielded before it, keeping the error's type", async () => {
    const src = issuingSource(10, 2);
    const fetchPage = async (pageNum: number) => {
      if (pageNum === 3)
        throw new ConnectionError("Connection to the service failed on /list (ECONNRESET)", {
          code: "ECONNRESET",
          path: "/list",
        });
      return src.fetchPage(pageNum);
    };
    let seen = 0;
    const failure = await (async () => {
      for await (const _ of paginate({ pageNum: 1, pageSize: 2, fetchPage, key: (r) => r.id }))
        seen++;
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isConnectionError(failure)).toBe(true);
    expect(failure).toMatchObject({ code: "ECONNRESET", pageNum: 3, recordsYielded: 4 });
    expect((failure as Error).message).toBe(
      "Connection to the service failed on /list (ECONNRESET) (page 3 of the list; 4 records were yielded before it)",
    );
    expect(seen).toBe(4);
    // The same through pages(), counting the records of the pages handed out.
    const viaPages = await (async () => {
      for await (const _ of paginate({ pageNum: 1, pageSize: 2, fetchPage }).pages());
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(viaPages).toMatchObject({ pageNum: 3, recordsYielded: 4 });
    // A first page's error is the awaited page's too: left as it is.
    const first = await paginate({
      pageNum: 3,
      pageSize: 2,
      fetchPage,
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(first).not.toHaveProperty("pageNum");
  });

  it("hands out records in order to next() calls that do not wait for each other", async () => {
    const { fetchPage } = issuingSource(5, 2);
    const it = paginate({ pageNum: 1, pageSize: 2, fetchPage })[Symbol.asyncIterator]();
    const results = await Promise.all([it.next(), it.next(), it.next(), it.next(), it.next()]);
    expect(results.map((r) => r.value?.id)).toEqual(["1", "2", "3", "4", "5"]);
    expect((await it.next()).done).toBe(true);
  });

  it("reads the payout shape, including size -1 (everything in one page)", async () => {
    const p = payoutPage(
      { records: [{ a: 1 }, { a: 2 }], total: 5, size: 2, current: 1 },
      { pageNum: 1, pageSize: 2 },
    );
    expect(p).toMatchObject({ pageNum: 1, pageSize: 2, totalRecords: 5, hasMore: true });
    const last = payoutPage(
      { records: [{ a: 5 }], total: 5, size: 2, current: 3 },
      { pageNum: 3, pageSize: 2 },
    );
    expect(last.hasMore).toBe(false);
    const all = payoutPage(
      { records: [{ a: 1 }], total: 1, size: -1, current: 1 },
      { pageNum: 1, pageSize: -1 },
    );
    expect(all.hasMore).toBe(false);
  });

  it("supports catch and finally like a promise", async () => {
    const failing = paginate<{ id: string }>({
      pageNum: 1,
      pageSize: 10,
      fetchPage: async () => Promise.reject(new Error("down")),
    });
    let finished = false;
    expect(
      await failing
        .catch((e: unknown) => (e as Error).message)
        .finally(() => {
          finished = true;
        }),
    ).toBe("down");
    expect(finished).toBe(true);
  });

  it("treats an empty page as the end even when totals claim more", async () => {
    const p = issuingPage(
      { records: [], pageNum: 2, pageSize: 10, totalPages: 5, totalRecords: 50 },
      { pageNum: 2, pageSize: 10 },
    );
    expect(p.hasMore).toBe(false);
  });
});

describe("RecentRecords", () => {
  it("gives the last n records oldest first, across the ring's wrap", () => {
    const recent = new RecentRecords<number>(4);
    for (let i = 1; i <= 3; i++) recent.add(i);
    expect(recent.last(2)).toEqual([2, 3]);
    expect(recent.last(9)).toEqual([1, 2, 3]);
    expect(recent.holdsLast(9)).toBe(true);
    for (let i = 4; i <= 10; i++) recent.add(i);
    expect(recent.last(4)).toEqual([7, 8, 9, 10]);
    expect(recent.last(1)).toEqual([10]);
    expect(recent.holdsLast(4)).toBe(true);
    expect(recent.holdsLast(5)).toBe(false);
  });
});
