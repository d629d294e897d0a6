// Moving a ledger file between the folder's subfolders without ever replacing a file there.
// rename() replaces its target, and two files of one name can move in one cycle: a name is
// taken by creating it exclusively (O_EXCL) and the file renamed onto that empty placeholder,
// the one file it may replace.
import { copyFile, mkdir, open, rename, stat, unlink, utimes } from "node:fs/promises";
import { join } from "node:path";

/** How many names are tried before giving up (each one taken means a file kept). */
const MAX_NAMES = 1_000;

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** The time of a move as it is written into a name: 2026-05-02T03-04-05-678Z. */
const stampOf = (now: Date) => now.toISOString().replace(/[:.]/g, "-");

/** A time of a move (and a counter) at the end of a name, before any .csv. */
const STAMPED = /\.\d{4,}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z(?:-\d+)?(\.csv)?$/i;

/**
 * The name a file was moved under by moveInto, without the time of the move (and counter) it
 * may carry: "ledger.2026-05-02T03-04-05-678Z-2.csv" answers "ledger.csv". Only the last such
 * time is taken off, so a name that carried one before its move comes back as it was.
 */
export const nameBeforeMove = (movedName: string): string => movedName.replace(STAMPED, "$1");

/** name, then name with the time of the move before .csv, then that with -2, -3, … */
function* candidateNames(name: string, now: Date): Generator<string> {
  yield name;
  const stamp = stampOf(now);
  for (let n = 1; n < MAX_NAMES; n++)
    yield name.replace(/(\.csv)?$/i, `.${stamp}${n > 1 ? `-${n}` : ""}$1`);
}

/**
 * Takes a free name in dir: the first candidate that can be created exclusively, together
 * with `name + suffix` for each companion (a reason file beside a rejected file). Answers the
 * placeholders' paths, the file's first.
 */
async function takeName(
  dir: string,
  name: string,
  now: Date,
  companions: readonly string[],
): Promise<string[]> {
  for (const candidate of candidateNames(name, now)) {
    const paths = [candidate, ...companions.map((suffix) => candidate + suffix)].map((n) =>
      join(dir, n),
    );
    const made: string[] = [];
    try {
      for (const path of paths) {
        await (await open(path, "wx")).close();
        made.push(path);
      }
      return paths;
    } catch (error) {
      await removeAll(made);
      if (errorCode(error) !== "EEXIST") throw error;
    }
  }
  throw new Error(`no free name for ${name} in ${dir} after ${MAX_NAMES} tries`);
}

async function removeAll(paths: readonly string[]): Promise<void> {
  await Promise.all(paths.map((path) => unlink(path).catch(() => undefined)));
}

/** rename(); false when the two paths lie on different file systems (EXDEV). */
async function renamed(from: string, to: string): Promise<boolean> {
  try {
    await rename(from, to);
    return true;
  } catch (error) {
    if (errorCode(error) === "EXDEV") return false;
    throw error;
  }
}

interface MoveOptions {
  /** Suffixes of files to create empty beside the moved one (each under a free name too). */
  companions?: readonly string[];
  /** Copy what `from` points to and remove `from` (a symlink, whose target stays). */
  copy?: boolean;
}

/**
 * Moves the file `from` into dir (created if missing) as `name`, or under another free name when
 * that one is taken, and answers its new path. Into another file system (rename fails with
 * EXDEV) by copy and unlink: a crash between the two leaves the file where it was, to be moved
 * again. On failure nothing is left behind in dir and `from` stays.
 */
export async function moveInto(
  from: string,
  dir: string,
  name: string,
  now: Date,
  opts: MoveOptions = {},
): Promise<string> {
  await mkdir(dir, { recursive: true });
  const paths = await takeName(dir, name, now, opts.companions ?? []);
  const target = paths[0] as string;
  try {
    if (opts.copy || !(await renamed(from, target))) {
      // Its mtime kept, as rename keeps it: a later write then shows as an mtime no earlier
      // than the ctime (recheck-imported.ts), where a copy alone dated both alike. Not kept
      // (a file system refusing it): the copy is only re-read by that check a while longer.
      const { atime, mtime } = await stat(from);
      await copyFile(from, target);
      await utimes(target, atime, mtime).catch(() => undefined);
      await unlink(from);
    }
  } catch (error) {
    await removeAll(paths);
    throw error;
  }
  return target;
}
