// The watched ledger folder (RECONCILER_LEDGER_DIR): every *.csv dropped there is taken in once,
// all or nothing, then moved to imported/; a bad file goes to rejected/ with <name>.reason.txt
// naming each bad line and rule (or the database's refusal), and nothing of it is imported.
// Files still being written (a .part name, or changed within the last few seconds) wait for the
// next cycle. A settled file is first claimed by renaming it into processing/, so what is
// imported and moved on is exactly what was claimed, whatever the producer writes at its old
// name meanwhile.
import { createHash } from "node:crypto";
import { constants } from "node:fs";
import {
  copyFile,
  lstat,
  mkdir,
  readdir,
  readFile,
  rename,
  stat,
  unlink,
  writeFile,
} from "node:fs/promises";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";
import { dataRefusal } from "../db/sql-state";
import { importLedgerEntries } from "./import-ledger";
import { parseLedger } from "./parse-ledger";

/** How long a file must be left unchanged before it is taken (a writer may still append). */
export const SETTLE_MS = 5_000;

export interface LedgerFileOutcome {
  name: string;
  sha256: string;
  sizeBytes: number;
  /** imported; duplicate (the same content was imported before); rejected (nothing imported). */
  status: "imported" | "duplicate" | "rejected";
  /** Data rows imported, or bad rows found. */
  rows: number;
  inserted?: number;
  updated?: number;
  /** Where the file was moved to. */
  movedTo: string;
  /** For rejected files: the first bad lines (all of them are in the reason file). */
  reason?: string;
}

export interface FolderIntake {
  folder: string;
  files: LedgerFileOutcome[];
  /** Names left for a later cycle: still being written, or changed moments ago. */
  waiting: string[];
}

/** A name under `dir` not taken yet: name, or name with the time of the move before .csv. */
async function freeName(dir: string, name: string, now: Date): Promise<string> {
  const taken = await stat(join(dir, name)).then(
    () => true,
    () => false,
  );
  if (!taken) return name;
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  return name.replace(/(\.csv)?$/i, `.${stamp}$1`);
}

/** Where claimed files are read, imported and moved on from (on the folder's file system). */
export const PROCESSING = "processing";

/**
 * Renames a file; into a folder on another file system (imported/ on a mount or a symlink),
 * where rename fails with EXDEV, by copy and unlink instead. A crash between the two leaves the
 * file in processing/, found again next cycle as a duplicate of what it imported.
 */
async function moveFile(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    await copyFile(from, to, constants.COPYFILE_EXCL);
    await unlink(from);
  }
}

/** Moves the claimed file `name` into folder/sub under a name not taken there yet. */
async function moveInto(folder: string, sub: string, name: string, now: Date): Promise<string> {
  const dir = join(folder, sub);
  await mkdir(dir, { recursive: true });
  const target = join(dir, await freeName(dir, name, now));
  await moveFile(join(folder, PROCESSING, name), target);
  return target;
}

async function recordFile(
  db: Db,
  file: Omit<LedgerFileOutcome, "movedTo" | "inserted" | "updated">,
): Promise<void> {
  await queryRows(
    db,
    sql`INSERT INTO ledger_files (name, size_bytes, sha256, status, rows, reason)
      VALUES (${file.name}, ${file.sizeBytes}, ${file.sha256}, ${file.status}, ${file.rows},
        ${file.reason ?? null})`,
  );
}

async function alreadyImported(db: Db, sha256: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`SELECT 1 FROM ledger_files WHERE sha256 = ${sha256} AND status = 'imported'`,
  );
  return rows.length > 0;
}

type FileBase = Pick<LedgerFileOutcome, "name" | "sha256" | "sizeBytes">;

/** Records the file as rejected, moves it to rejected/ and writes its reason file beside it. */
async function reject(
  db: Db,
  folder: string,
  base: FileBase,
  now: Date,
  rows: number,
  why: string,
  lines: string[],
): Promise<LedgerFileOutcome> {
  const reason = `${why}, nothing imported\n${lines.join("\n")}\n`;
  await recordFile(db, { ...base, status: "rejected", rows, reason });
  const movedTo = await moveInto(folder, "rejected", base.name, now);
  await writeFile(`${movedTo}.reason.txt`, `${base.name}: ${reason}`, "utf8");
  return { ...base, status: "rejected", rows, movedTo, reason: lines.slice(0, 5).join("; ") };
}

/**
 * One claimed file (in processing/): imported in one transaction with its ledger_files row, or
 * rejected. Rows the checks pass but the database refuses (a data error, SQLSTATE class 22 or
 * 23) reject this file alone; any other database error fails the intake, leaving the file in
 * processing/ for the next cycle.
 */
async function takeFile(
  db: Db,
  folder: string,
  name: string,
  now: Date,
): Promise<LedgerFileOutcome> {
  const bytes = await readFile(join(folder, PROCESSING, name));
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const base = { name, sha256, sizeBytes: bytes.length };
  // Found again after a crash between the commit and the move, or dropped twice.
  if (await alreadyImported(db, sha256)) {
    await recordFile(db, { ...base, status: "duplicate", rows: 0 });
    return {
      ...base,
      status: "duplicate",
      rows: 0,
      movedTo: await moveInto(folder, "imported", name, now),
    };
  }
  const parsed = parseLedger(bytes.toString("utf8"));
  if (parsed.errors.length > 0) {
    const lines = parsed.errors.map((e) => `line ${e.line}: ${e.reason}`);
    return reject(db, folder, base, now, parsed.errors.length, `${lines.length} bad row(s)`, lines);
  }
  let result: Awaited<ReturnType<typeof importLedgerEntries>>;
  try {
    result = await importLedgerEntries(db, parsed.entries, {
      sourceFile: name,
      alsoInTransaction: (tx) =>
        recordFile(tx, { ...base, status: "imported", rows: parsed.entries.length }),
    });
  } catch (error) {
    // The transaction rolled back; rows is 0 since the database does not say which row it was.
    const refusal = dataRefusal(error);
    if (refusal === undefined) throw error;
    return reject(db, folder, base, now, 0, "the database refused a row", [refusal]);
  }
  return {
    ...base,
    status: "imported",
    rows: result.rows,
    inserted: result.inserted,
    updated: result.updated,
    movedTo: await moveInto(folder, "imported", name, now),
  };
}

/**
 * Takes in every settled *.csv of the folder, oldest name first, after any file a stopped
 * intake left in processing/. A file that cannot be taken is rejected on its own: the others
 * still go in. Throws only when the folder itself cannot be read or the database fails (then
 * nothing of the file in hand was committed, and it waits in processing/).
 */
export async function intakeLedgerFolder(
  db: Db,
  folder: string,
  opts: { now?: Date; settleMs?: number } = {},
): Promise<FolderIntake> {
  const now = opts.now ?? new Date();
  const settleMs = opts.settleMs ?? SETTLE_MS;
  const claimed = join(folder, PROCESSING);
  const files: LedgerFileOutcome[] = [];
  const waiting: string[] = [];
  // Listed first: a folder that is not there fails the intake, and is never created here.
  const dropped = await csvNames(folder, true);
  // Claimed before a crash or a failed import: they were settled then; idempotency by sha256
  // (and entry_id) makes taking them again safe whether or not their import committed.
  await mkdir(claimed, { recursive: true });
  for (const name of await csvNames(claimed)) files.push(await takeFile(db, folder, name, now));
  for (const name of dropped) {
    if (name.endsWith(".part")) {
      waiting.push(name);
      continue;
    }
    const path = join(folder, name);
    // stat follows a symlink: its target's age. A link to nothing (yet) waits like a .part.
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile() || now.getTime() - info.mtimeMs < settleMs) {
      waiting.push(name);
      continue;
    }
    // processing/ was emptied above, so the claim replaces nothing. Atomic on one file system:
    // a producer replacing the file from here on writes a new file, taken in by a later cycle.
    // A symlink (a Kubernetes ConfigMap's files are ones, relative to the folder) would point
    // nowhere once moved: its target's content is claimed as a file, and the link removed.
    if (await isSymlink(path)) {
      await copyFile(path, join(claimed, name));
      await unlink(path);
    } else await rename(path, join(claimed, name));
    files.push(await takeFile(db, folder, name, now));
  }
  return { folder, files, waiting };
}

async function isSymlink(path: string): Promise<boolean> {
  return (await lstat(path)).isSymbolicLink();
}

/** Sorted names of the *.csv files (or links) of `dir` (and *.part files when `withPart`). */
async function csvNames(dir: string, withPart = false): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => (e.isFile() || e.isSymbolicLink()) && !e.name.startsWith("."))
    .map((e) => e.name)
    .filter((n) => n.toLowerCase().endsWith(".csv") || (withPart && n.endsWith(".part")))
    .sort();
}
