import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RecordLog } from "./record-log";
import { sortByTime } from "./sorted-log";

interface Rec {
  seq: number;
  time: number;
  card: string;
  kind: string;
  status: string;
}

const newLog = () =>
  new RecordLog<Rec>((r) => r.time, { card: (r) => r.card, kind: (r) => r.kind });

const rec = fc.record({
  time: fc.integer({ min: 0, max: 50 }),
  card: fc.constantFrom("a", "b", "c"),
  kind: fc.constantFrom("X", "Y"),
  status: fc.constantFrom("P", "S"),
});

describe("RecordLog", () => {
  it("answers every query like a sort-and-filter of all records, inserted in any order", () => {
    fc.assert(
      fc.property(
        fc.array(rec, { maxLength: 80 }),
        fc.record({
          from: fc.integer({ min: -5, max: 55 }),
          to: fc.integer({ min: -5, max: 55 }),
          card: fc.option(fc.constantFrom("a", "b", "z"), { nil: undefined }),
          kind: fc.option(fc.constantFrom("X", "Y"), { nil: undefined }),
          status: fc.option(fc.constantFrom("P", "S"), { nil: undefined }),
          pageNum: fc.integer({ min: 1, max: 5 }),
          pageSize: fc.integer({ min: 1, max: 30 }),
        }),
        (rows, q) => {
          const log = newLog();
          const records = rows.map((r, seq) => ({ ...r, seq }));
          for (const r of records) log.insert(r);
          const page = log.page({
            fromMs: q.from,
            toMs: q.to,
            keys: { card: q.card, kind: q.kind },
            match:
              q.status === undefined
                ? undefined
                : { id: q.status, test: (r) => r.status === q.status },
            pageNum: q.pageNum,
            pageSize: q.pageSize,
          });
          const expected = [...records]
            .sort((a, b) => a.time - b.time || a.seq - b.seq)
            .filter((r) => r.time >= q.from && r.time <= q.to)
            .filter((r) => q.card === undefined || r.card === q.card)
            .filter((r) => q.kind === undefined || r.kind === q.kind)
            .filter((r) => q.status === undefined || r.status === q.status);
          expect(page.total).toBe(expected.length);
          const start = (q.pageNum - 1) * q.pageSize;
          expect(page.items).toEqual(expected.slice(start, start + q.pageSize));
        },
      ),
    );
  });

  it("recomputes a cached status filter after a change", () => {
    const log = newLog();
    const a = { seq: 0, time: 1, card: "a", kind: "X", status: "P" };
    log.insert(a);
    log.insert({ seq: 1, time: 2, card: "a", kind: "X", status: "S" });
    const query = (status: string) =>
      log.page({
        fromMs: 0,
        toMs: 10,
        keys: {},
        match: { id: status, test: (r) => r.status === status },
        pageNum: 1,
        pageSize: 10,
      }).total;
    expect(query("P")).toBe(1);
    a.status = "S";
    log.changed();
    expect(query("P")).toBe(0);
    expect(query("S")).toBe(2);
  });

  it("bulk-loads sorted records with their indexes", () => {
    const log = newLog();
    const items = [3, 1, 2, 1].map((time, seq) => ({
      seq,
      time,
      card: seq % 2 ? "a" : "b",
      kind: "X",
      status: "S",
    }));
    log.load(sortByTime(items, (r) => r.time));
    expect(log.all.items.map((r) => r.seq)).toEqual([1, 3, 2, 0]);
    const page = log.page({ fromMs: 0, toMs: 10, keys: { card: "a" }, pageNum: 1, pageSize: 10 });
    expect(page.items.map((r) => r.seq)).toEqual([1, 3]);
  });

  it("sorts by time keeping input order for ties, at any time span", () => {
    const items = [5, 1, 5, 0, 1].map((time, i) => ({ time, i }));
    expect(sortByTime(items, (x) => x.time).map((x) => x.i)).toEqual([3, 1, 4, 0, 2]);
    // Beyond what fits in 64 bits with the index: the comparator fallback, same order.
    const wide = [2 ** 52, 0, 2 ** 52, 1].map((time, i) => ({ time, i }));
    expect(sortByTime(wide, (x) => x.time).map((x) => x.i)).toEqual([1, 3, 0, 2]);
  });
});
