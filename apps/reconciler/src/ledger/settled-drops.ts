// Which files dropped in the ledger folder are finished: a file is taken once it has been left
// unchanged for the settle time. Its age says so, measured by its mtime against this machine's
// clock; when the mtime lies ahead of that clock (the producer's clock, or a file server's, runs
// ahead) the age says nothing: such a file once waited until this clock caught up (hours, or for
// ever with a clock years ahead), every run exiting 0 without a word. It is watched for the
// settle time instead, and named so that someone sets the clock right.
import type { Stats } from "node:fs";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

interface DropsChecked {
  /** Finished, in name order, with what stat said of each: taken if still so (isUnchanged). */
  settled: { name: string; info: Stats }[];
  /** Still being written (a .part name, changed within the settle time, a link to nothing). */
  waiting: string[];
  /** Files whose mtime lay ahead of this machine's clock by more than the settle time. */
  aheadOfClock: { name: string; aheadMs: number }[];
}

const unchanged = (a: Stats, b: Stats) =>
  a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;

/** True when the file at `path` is still the one stat saw as `info`, unchanged. */
export async function isUnchanged(path: string, info: Stats): Promise<boolean> {
  const now = await stat(path).catch(() => undefined);
  return now !== undefined && unchanged(info, now);
}

/** Sorts `names` (sorted) of `folder` by whether they are finished, as of `now`. */
export async function checkDrops(
  folder: string,
  names: readonly string[],
  now: Date,
  settleMs: number,
): Promise<DropsChecked> {
  const checked: DropsChecked = { settled: [], waiting: [], aheadOfClock: [] };
  const watched = new Map<string, Stats>();
  for (const name of names) {
    // stat follows a symlink: its target's age. A link to nothing (yet) waits like a .part.
    const info = name.endsWith(".part")
      ? undefined
      : await stat(join(folder, name)).catch(() => undefined);
    const ageMs = info ? now.getTime() - info.mtimeMs : 0;
    if (!info?.isFile()) checked.waiting.push(name);
    else if (-ageMs > settleMs) {
      checked.aheadOfClock.push({ name, aheadMs: Math.round(-ageMs) });
      watched.set(name, info);
    } else if (ageMs < settleMs) checked.waiting.push(name);
    else checked.settled.push({ name, info });
  }
  if (watched.size === 0) return checked;
  await sleep(settleMs);
  for (const [name, info] of watched) {
    if (await isUnchanged(join(folder, name), info)) checked.settled.push({ name, info });
    else checked.waiting.push(name);
  }
  checked.settled.sort((a, b) => (a.name < b.name ? -1 : 1));
  checked.waiting.sort();
  return checked;
}
