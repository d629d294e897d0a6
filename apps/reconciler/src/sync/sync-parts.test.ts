// The sync's pure parts: window planning and the watermark prefix, drift detection, the rate
// limiter and the pool.
import type { Page } from "@merchantkit/core";
import { describe, expect, it } from "vitest";
import { runPool } from "./pool";
import { createRateLimiter } from "./rate-limiter";
import { readWindow } from "./read-window";
import { overallOutcome, totalUnread } from "./run-sync";
import { emptySummary } from "./stream-summary";
import type { StreamSummary } from "./sync-types";
import { alignDown, alignUp, splitWindows, WindowPrefix } from "./windows";

const at = (iso: string) => new Date(iso);
const H = 3_600_000;

describe("splitWindows", () => {
  it("aligns windows to multiples of the window size; the ends may be shorter", () => {
    const windows = splitWindows(at("2026-06-01T10:30:00Z"), at("2026-06-01T13:15:00Z"), H);
    expect(windows.map((w) => [w.start.toISOString(), w.end.toISOString()])).toEqual([
      ["2026-06-01T10:30:00.000Z", "2026-06-01T11:00:00.000Z"],
      ["2026-06-01T11:00:00.000Z", "2026-06-01T12:00:00.000Z"],
      ["2026-06-01T12:00:00.000Z", "2026-06-01T13:00:00.000Z"],
      ["2026-06-01T13:00:00.000Z", "2026-06-01T13:15:00.000Z"],
    ]);
    expect(splitWindows(at("2026-06-01T10:00:00Z"), at("2026-06-01T10:00:00Z"), H)).toEqual([]);
  });
});

describe("alignDown / alignUp", () => {
  it("answer the window boundaries around a time (a boundary is its own)", () => {
    expect(alignDown(at("2026-06-01T10:30:00Z"), H)).toEqual(at("2026-06-01T10:00:00Z"));
    expect(alignUp(at("2026-06-01T10:30:00Z"), H)).toEqual(at("2026-06-01T11:00:00Z"));
    expect(alignDown(at("2026-06-01T10:00:00Z"), H)).toEqual(at("2026-06-01T10:00:00Z"));
    expect(alignUp(at("2026-06-01T10:00:00Z"), H)).toEqual(at("2026-06-01T10:00:00Z"));
  });
});

describe("overallOutcome", () => {
  const stream = (outcome: StreamSummary["outcome"], windows: number, failed = 0) => ({
    ...emptySummary(outcome),
    windows,
    failedWindows: failed,
    unread: { count: failed, since: failed > 0 ? "2026-06-01T00:00:00.000Z" : null },
  });
  it("fails a run whose every due window failed, whatever a stream with nothing due says", () => {
    const failedCards = stream("failed", 4, 4);
    const failedOps = stream("failed", 4, 4);
    const nothingDue = stream("ok", 0);
    expect(overallOutcome([failedCards, failedOps, nothingDue], false)).toBe("failed");
    expect(overallOutcome([failedCards, nothingDue], false)).toBe("failed");
    // Something read: partial.
    expect(overallOutcome([failedCards, stream("ok", 2), nothingDue], false)).toBe("partial");
    // Nothing due anywhere: ok.
    expect(overallOutcome([nothingDue, stream("ok", 0)], false)).toBe("ok");
  });
  it("sums what the streams left unread, and answers unknown when one that ran could not tell", () => {
    const failedCards = stream("failed", 4, 4);
    expect(totalUnread([failedCards, stream("ok", 2)])).toEqual({
      count: 4,
      since: "2026-06-01T00:00:00.000Z",
    });
    // The database gone: the stream ended in an error without reading its unread windows. A
    // count of 0 here would tell a monitor nothing is missing.
    const gone = { ...emptySummary("failed"), unread: null };
    expect(totalUnread([gone, stream("ok", 2)])).toBeNull();
    expect(overallOutcome([gone, stream("ok", 2)], false)).toBe("failed");
    // A stream another worker holds is that worker's to tell.
    expect(totalUnread([{ ...emptySummary("busy"), unread: null }, failedCards])?.count).toBe(4);
  });
});

describe("WindowPrefix", () => {
  it("reaches only as far as the windows finished without a gap", () => {
    const windows = splitWindows(at("2026-06-01T00:00:00Z"), at("2026-06-01T04:00:00Z"), H);
    const prefix = new WindowPrefix(windows);
    expect(prefix.end).toBeUndefined();
    expect(prefix.endWith(2)).toBeUndefined(); // window 0 not finished
    prefix.markDone(2);
    prefix.markDone(1);
    expect(prefix.end).toBeUndefined();
    expect(prefix.endWith(0)).toEqual(at("2026-06-01T03:00:00Z")); // 0 closes the gap to 2
    prefix.markDone(0);
    expect(prefix.end).toEqual(at("2026-06-01T03:00:00Z"));
    prefix.markDone(3);
    expect(prefix.end).toEqual(at("2026-06-01T04:00:00Z"));
  });
});

function page<R>(records: R[], pageNum: number, totalRecords: number, pageSize = 2): Page<R> {
  const totalPages = Math.ceil(totalRecords / pageSize);
  return { records, pageNum, pageSize, totalRecords, totalPages, hasMore: pageNum < totalPages };
}

async function* pagesOf<R>(list: Page<R>[]) {
  for (const p of list) yield p;
}

describe("readWindow", () => {
  it("reads every page when the count holds still", async () => {
    const read = await readWindow({
      pages: () => pagesOf([page([1, 2], 1, 3), page([3], 2, 3)]),
      driftRetries: 2,
    });
    expect(read).toEqual({ kind: "read", records: [1, 2, 3], pages: 2, reads: 1 });
  });

  it("reads the window again when totalRecords changes under paging", async () => {
    const reads = [
      [page([1, 2], 1, 3), page([2, 3], 2, 4)], // a record arrived between the pages
      [page([0, 1], 1, 4), page([2, 3], 2, 4)],
    ];
    let n = 0;
    const read = await readWindow({ pages: () => pagesOf(reads[n++] ?? []), driftRetries: 2 });
    expect(read).toEqual({ kind: "read", records: [0, 1, 2, 3], pages: 4, reads: 2 });
  });

  it("gives up after the retries and says why", async () => {
    const read = await readWindow({
      pages: () => pagesOf([page([1, 2], 1, 3), page([3], 2, 4)]),
      driftRetries: 1,
    });
    expect(read).toMatchObject({ kind: "drifted", reads: 2, pages: 4 });
    expect(read.kind === "drifted" && read.detail).toBe("totalRecords went from 3 to 4 on page 2");
  });

  it("notices a count that does not match the records read on a single page", async () => {
    const read = await readWindow({
      pages: () => pagesOf([page([1], 1, 2, 100)]),
      driftRetries: 0,
    });
    expect(read.kind).toBe("drifted");
  });
});

describe("createRateLimiter", () => {
  it("lets a burst through, then one request per interval", async () => {
    let clock = 0;
    const limiter = createRateLimiter(10, { burst: 2, now: () => clock });
    const started: number[] = [];
    const waits = Array.from({ length: 4 }, () => {
      const p = limiter.take().then(() => started.push(clock));
      return p;
    });
    clock = 1_000;
    await Promise.all(waits);
    expect(started.length).toBe(4);
  });

  it("paces real requests at the configured rate", async () => {
    const limiter = createRateLimiter(100, { burst: 1 });
    const t0 = performance.now();
    for (let i = 0; i < 11; i++) await limiter.take();
    expect(performance.now() - t0).toBeGreaterThanOrEqual(90);
  });
});

describe("runPool", () => {
  it("runs at most `concurrency` tasks at once and lets running ones finish after a failure", async () => {
    let running = 0;
    let peak = 0;
    const finished: number[] = [];
    const task = (i: number) => async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      if (i === 1) throw new Error("boom");
      finished.push(i);
    };
    await expect(runPool([0, 1, 2, 3, 4, 5].map(task), 2)).rejects.toThrow("boom");
    expect(peak).toBe(2);
    expect(finished).toContain(0);
    expect(finished.length).toBeLessThan(5);
  });
});
