// Test support: incremental = full. An incremental run, then a full one over the same data,
// must leave the same stored results (what `read` reads of them); answers them.
import { expect } from "vitest";
import type { Db } from "../db/database";
import type { MatchOptions } from "../match/match-options";
import { runMatch } from "../match/run-match";

export async function runIncrementalThenFull<T>(
  db: Db,
  options: MatchOptions,
  read: () => Promise<T>,
): Promise<T> {
  const incremental = await runMatch(db, options);
  expect(incremental.incremental).toBe(true);
  const after = await read();
  await runMatch(db, { ...options, full: true });
  expect(await read()).toEqual(after);
  return after;
}
