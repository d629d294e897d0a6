/**
 * Side-by-side benchmark harness. Every benchmark compares a candidate with a baseline measured
 * in the same process and the same run, interleaved round by round, so machine noise hits both
 * alike and the printed ratio is meaningful even where absolute times are not.
 */
import { performance } from "node:perf_hooks";

export interface BenchCase {
  name: string;
  /** One operation. May be async; awaited when it returns a promise. */
  fn: () => unknown;
}

export interface CompareOptions {
  title: string;
  baseline: BenchCase;
  candidates: BenchCase[];
  /** Time budget per case per round, in ms. */
  roundMs?: number;
  rounds?: number;
  /** What one operation is, for the rate column (e.g. "req", "record"). */
  unit?: string;
  /** Operations per call of fn (e.g. 100 records per page). */
  opsPerCall?: number;
}

export interface CaseResult {
  name: string;
  opsPerSec: number;
  nsPerOp: number;
  /** Time per op relative to the baseline: 1.00 = as fast, 2.00 = twice as slow. */
  ratio: number;
}

async function timeCase(
  fn: BenchCase["fn"],
  budgetMs: number,
): Promise<{ calls: number; ms: number }> {
  let calls = 0;
  const start = performance.now();
  let now = start;
  while (now - start < budgetMs) {
    const r = fn();
    if (r instanceof Promise) await r;
    calls++;
    if ((calls & 15) === 0 || r instanceof Promise) now = performance.now();
  }
  return { calls, ms: performance.now() - start };
}

export async function compare(opts: CompareOptions): Promise<CaseResult[]> {
  const { roundMs = 300, rounds = 5, unit = "op", opsPerCall = 1 } = opts;
  const cases = [opts.baseline, ...opts.candidates];
  const totals = cases.map(() => ({ calls: 0, ms: 0 }));
  for (const c of cases) await timeCase(c.fn, Math.min(100, roundMs)); // warm-up
  for (let round = 0; round < rounds; round++) {
    // Every other round runs the cases in reverse order, so a case is not always the one that
    // follows the same neighbour (whose garbage it would collect) or meets the same part of a
    // burst of load from other work.
    const order = [...cases.keys()];
    if (round % 2 === 1) order.reverse();
    for (const i of order) {
      const c = cases[i] as BenchCase;
      const t = await timeCase(c.fn, roundMs);
      const total = totals[i];
      if (total) {
        total.calls += t.calls;
        total.ms += t.ms;
      }
    }
  }
  const results = cases.map((c, i) => {
    const t = totals[i] ?? { calls: 0, ms: 1 };
    const ops = t.calls * opsPerCall;
    return { name: c.name, opsPerSec: (ops / t.ms) * 1000, nsPerOp: (t.ms * 1e6) / ops, ratio: 0 };
  });
  const base = results[0]?.nsPerOp ?? 1;
  for (const r of results) r.ratio = r.nsPerOp / base;
  printTable(opts.title, unit, results);
  return results;
}

export function printTable(title: string, unit: string, results: CaseResult[]): void {
  console.log(`\n## ${title}`);
  const width = Math.max(...results.map((r) => r.name.length), 8);
  console.log(
    `${"case".padEnd(width)}  ${`${unit}/s`.padStart(14)}  ${"µs/op".padStart(10)}  ratio`,
  );
  for (const r of results) {
    console.log(
      `${r.name.padEnd(width)}  ${Math.round(r.opsPerSec).toLocaleString("en-US").padStart(14)}  ${(r.nsPerOp / 1000).toFixed(3).padStart(10)}  ${r.ratio.toFixed(2)}×`,
    );
  }
}

/** A bench setting from the environment, read by name (sizes, row counts, switches). */
export function benchSetting(name: string): string | undefined {
  return process.env[name];
}

/**
 * The Postgres server a bench runs on (DATABASE_URL), or undefined after saying that `what`
 * needs one and how to start it.
 */
export function postgresServer(what: string): string | undefined {
  const url = process.env.DATABASE_URL;
  if (!url)
    console.log(
      `DATABASE_URL is not set: ${what} needs a Postgres server; start one with eval "$(bash scripts/start-postgres.sh)".`,
    );
  return url;
}

/** The middle of `xs` (the upper of the two middles for an even count); NaN for none. */
export const median = (xs: readonly number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

/** A match run's statement timings: the milliseconds in them, and the `n` slowest as a line. */
export function statementSummary(
  timings: readonly { name: string; ms: number }[],
  n: number,
): { inStatements: number; slowest: string } {
  const slowest = [...timings].sort((a, b) => b.ms - a.ms).slice(0, n);
  return {
    inStatements: timings.reduce((sum, t) => sum + t.ms, 0),
    slowest: slowest.map((t) => `${t.name} ${t.ms} ms`).join(", "),
  };
}
