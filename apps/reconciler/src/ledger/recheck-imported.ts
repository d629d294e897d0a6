// Files moved to imported/ lately, looked at again by every cycle: a producer writing in place
// can pause past the settle time and go on after the cycle's own check (moveToImported), and
// the rows written late would be lost without a word.
//
// ledger_files records a file's name, size and sha256, not where it went: a file in imported/
// is matched by its name, without the time of the move a taken name gets (move-file.ts).
// - Recent: its name has an imported or duplicate row of the last RECHECK_MS (and some slack
//   for the database's and the file system's clocks), and its ctime (set by the move, and by
//   every write) lies within RECHECK_MS of the cycle.
// - Unchanged, without reading it: its size is one recorded for its name, and its mtime lies
//   before its ctime. A write sets both to the same instant; a rename (the move to imported/)
//   sets only the ctime, so a file not written since its move has mtime < ctime.
// - Otherwise (grown, shrunk, or written) it is hashed: content whose sha256 was imported is
//   fine (the same bytes written again); any other content was never imported, and the file is
//   answered as changed.
// A cycle costs a stat per file of a recent name, and a read only of files written since.
import type { BigIntStats } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";
import { errorText } from "../store/error-text";
import { csvNames, sha256Of } from "./folder-files";
import { nameBeforeMove } from "./move-file";

/** How long after its move a file in imported/ is still looked at by every cycle. */
const RECHECK_MS = 24 * 3600_000;

/** Slack for the database's clock (ledger_files.taken_at) against this machine's. */
const CLOCK_SLACK_MS = 3600_000;

interface ChangedSinceImport {
  /** The file in imported/. */
  path: string;
  /** The name it was taken under (and is taken again under). */
  name: string;
  sizeBytes: number;
  sha256: string;
}

interface ImportedRecheck {
  changed: ChangedSinceImport[];
  /** Files (or imported/ itself) that could not be looked at, and why. */
  unreadable: { name: string; at: string; error: string }[];
}

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

/** Each name taken in lately, with every size recorded for it (in any time). */
async function recentNames(db: Db, now: Date): Promise<Map<string, Set<number>>> {
  const since = new Date(now.getTime() - RECHECK_MS - CLOCK_SLACK_MS).toISOString();
  const rows = await queryRows<{ name: string; size_bytes: unknown }>(
    db,
    sql`SELECT DISTINCT name, size_bytes FROM ledger_files
      WHERE status IN ('imported', 'duplicate') AND name IN (
        SELECT name FROM ledger_files
        WHERE status IN ('imported', 'duplicate') AND taken_at > ${since}::timestamptz)`,
  );
  const names = new Map<string, Set<number>>();
  for (const row of rows) {
    const sizes = names.get(row.name) ?? new Set<number>();
    sizes.add(Number(row.size_bytes));
    names.set(row.name, sizes);
  }
  return names;
}

/** Whether content with this sha256 was imported from the folder before. */
export async function wasImported(db: Db, sha256: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`SELECT 1 FROM ledger_files WHERE sha256 = ${sha256} AND status = 'imported'`,
  );
  return rows.length > 0;
}

/** The *.csv names of `dir`; none when it is missing or not a folder (nothing was moved there). */
async function csvFiles(dir: string): Promise<string[]> {
  try {
    return await csvNames(dir);
  } catch (error) {
    if (errorCode(error) === "ENOENT" || errorCode(error) === "ENOTDIR") return [];
    throw error;
  }
}

/**
 * The files of `importedDir` moved there within RECHECK_MS of `now` whose content is no longer
 * content that was imported. Reads nothing but the files written since their move.
 */
export async function recheckImported(
  db: Db,
  importedDir: string,
  now: Date,
): Promise<ImportedRecheck> {
  const result: ImportedRecheck = { changed: [], unreadable: [] };
  const names = await recentNames(db, now);
  if (names.size === 0) return result;
  let files: string[];
  try {
    files = await csvFiles(importedDir);
  } catch (error) {
    const why = `imported/ cannot be listed to look again at the files taken in within 24 h: ${errorText(error)}`;
    result.unreadable.push({ name: "imported/", at: importedDir, error: why });
    return result;
  }
  for (const file of files) {
    const name = names.has(file) ? file : nameBeforeMove(file);
    const sizes = names.get(name);
    if (sizes === undefined) continue;
    const path = join(importedDir, file);
    let info: BigIntStats;
    try {
      info = await stat(path, { bigint: true });
    } catch (error) {
      if (errorCode(error) === "ENOENT") continue; // taken away meanwhile
      result.unreadable.push({
        name,
        at: path,
        error: `cannot be looked at again: ${errorText(error)}`,
      });
      continue;
    }
    // Empty: a placeholder a crash left (move-file.ts); no ledger file is ever empty.
    if (!info.isFile() || info.size === 0n) continue;
    if (now.getTime() - Number(info.ctimeMs) > RECHECK_MS) continue;
    const size = Number(info.size);
    if (sizes.has(size) && info.mtimeNs < info.ctimeNs) continue;
    let sha256: string;
    try {
      sha256 = sha256Of(await readFile(path));
    } catch (error) {
      result.unreadable.push({
        name,
        at: path,
        error: `cannot be read again: ${errorText(error)}`,
      });
      continue;
    }
    if (await wasImported(db, sha256)) continue;
    result.changed.push({ path, name, sizeBytes: size, sha256 });
  }
  return result;
}
