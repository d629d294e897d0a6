// The plan of a windowed stream's run, without a database or a service: what it reads, under
// which recorded bounds, which failed windows it reads again, and when it moves the watermark.
import { describe, expect, it } from "vitest";
import type { RetryWindow } from "../store/sync-windows";
import type { SyncContext } from "./sync-types";
import { planStreamRun } from "./window-plan";

const HOUR = 3_600_000;
const ctx = {
  config: { windowMs: HOUR, lookbackMs: 2 * HOUR, initialStart: { agoMs: 24 * HOUR } },
} as unknown as SyncContext;
const at = (iso: string) => new Date(`2026-11-20T${iso}Z`);
const retry = (start: string, end: string): RetryWindow =>
  ({ start: at(start), end: at(end), attempts: 1 }) as RetryWindow;

describe("planStreamRun", () => {
  it("reads from the watermark less the lookback to now, recorded on window bounds", () => {
    const plan = planStreamRun(
      ctx,
      {},
      {
        watermark: at("10:20:00"),
        recordedRetries: [],
        now: at("12:30:15.500"),
      },
    );
    expect([plan.from, plan.to]).toEqual([at("08:20:00"), at("12:30:15")]);
    const first = plan.windows[0];
    const last = plan.windows.at(-1);
    // The drifting start and the clock's end are recorded widened to the window grid.
    expect(first?.recorded).toEqual({ start: at("08:00:00"), end: first?.read.end });
    expect(first?.whole).toBe(false);
    expect(last?.recorded.end).toEqual(at("13:00:00"));
    expect(plan.movesWatermark).toBe(true);
  });

  it("does not read a failed window twice when its own window reads it whole", () => {
    const plan = planStreamRun(
      ctx,
      {},
      {
        watermark: at("10:20:00"),
        recordedRetries: [retry("09:00:00", "10:00:00"), retry("02:00:00", "03:00:00")],
        now: at("12:30:00"),
      },
    );
    expect(plan.retries.map((r) => r.start)).toEqual([at("02:00:00")]);
  });

  it("moves the watermark only for a range joining what is committed", () => {
    const state = { watermark: at("10:00:00"), recordedRetries: [], now: at("12:00:00") };
    expect(planStreamRun(ctx, { from: at("11:00:00") }, state).movesWatermark).toBe(false);
    expect(planStreamRun(ctx, { from: at("09:00:00") }, state).movesWatermark).toBe(true);
    expect(planStreamRun(ctx, { backfill: true }, state).movesWatermark).toBe(false);
  });
});
