// The watched ledger folder (RECONCILER_LEDGER_DIR): every *.csv dropped there is taken in once,
// all or nothing, then moved to imported/; a bad file goes to rejected/ with <name>.reason.txt
// naming each bad line and rule (or the database's refusal), and nothing of it is imported.
// Files still being written (a .part name, or changed within the last few seconds) wait for the
// next cycle. A settled file is first claimed by renaming it into processing/, so what is
// imported and moved on is exactly what was claimed, whatever the producer writes at its old
// name meanwhile. One file that cannot be taken never holds the others back. A producer writing
// in place may go on after all that: files moved to imported/ within a day are looked at again
// by every cycle (recheck-imported.ts), and one that changed goes back to processing/.
import { lstat, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";
import { dataRefusal } from "../db/sql-state";
import { errorText } from "../store/error-text";
import { csvNames, sha256Of } from "./folder-files";
import { importLedger, LedgerImportError, stagingCleanupFailureOf } from "./import-ledger";
import type { LedgerEntities } from "./ledger-row";
import { moveInto } from "./move-file";
import { recheckImported, wasImported } from "./recheck-imported";
import { checkDrops, isUnchanged } from "./settled-drops";

/** How long a file must be left unchanged before it is taken (a writer may still append). */
export const SETTLE_MS = 5_000;

interface LedgerFileOutcome {
  name: string;
  /** sha256 (hex) of the bytes read; "" for a file that could not be read. */
  sha256: string;
  sizeBytes: number;
  /** imported; duplicate (the same content was imported before); rejected (nothing imported). */
  status: "imported" | "duplicate" | "rejected";
  /** Data rows imported, or bad rows found. */
  rows: number;
  inserted?: number;
  updated?: number;
  /** Where the file is now: imported/ or rejected/, or processing/ when it could not be moved on. */
  movedTo: string;
  /** For rejected files: the first bad lines (all of them are in the reason file). */
  reason?: string;
}

/** A file this cycle could not finish: it stays where it is, and the next cycle tries again. */
interface LedgerFileFailure {
  name: string;
  /** What went wrong and what was done about it. */
  error: string;
  /** Where the file is now. */
  at: string;
}

export interface FolderIntake {
  folder: string;
  /** What was taken in: imports (committed), duplicates and rejections. */
  files: LedgerFileOutcome[];
  /** Names left for a later cycle: still being written, or changed moments ago. */
  waiting: string[];
  /** Files that could not be claimed, moved on, or changed while they were taken in. */
  failed: LedgerFileFailure[];
  /** Files dated ahead of this machine's clock (a clock is wrong: checkDrops). */
  aheadOfClock: { name: string; aheadMs: number }[];
  /**
   * Present only when a file failed: says which and why. The cycle reports the folder step by
   * it as failed (exit 1), like a folder it could not read, and keeps the lists beside it.
   */
  error?: string;
}

/** Where claimed files are read, imported and moved on from (on the folder's file system). */
export const PROCESSING = "processing";

const REASON = ".reason.txt";

/** One intake in progress: where, as of when, and what it did so far. */
interface Intake extends FolderIntake {
  now: Date;
  entities: LedgerEntities | undefined;
  /** The file being taken in (claimed, in processing/ at `at`), until it is done with. */
  inHand?: { name: string; at: string };
  /** Set when an error stopped the intake: why, and the files it then left untried. */
  stopped?: { cause: string; untried: string[] };
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

type FileBase = Pick<LedgerFileOutcome, "name" | "sha256" | "sizeBytes">;

/**
 * Moves a rejected file to rejected/ beside its reason file, then records it. Moved first: a
 * file that cannot be moved is reported as failed and stays in processing/ unrecorded, instead
 * of being recorded again by every cycle that finds it there.
 */
async function reject(
  db: Db,
  run: Intake,
  base: FileBase,
  path: string,
  rows: number,
  why: string,
  lines: string[],
): Promise<void> {
  const reason = `${why}, nothing imported\n${lines.join("\n")}\n`;
  let movedTo: string;
  try {
    movedTo = await moveInto(path, join(run.folder, "rejected"), base.name, run.now, {
      companions: [REASON],
    });
  } catch (error) {
    const failure = `${why}; not moved to rejected/: ${errorText(error)}; it waits in processing/`;
    run.failed.push({ name: base.name, error: failure, at: path });
    return;
  }
  await writeFile(`${movedTo}${REASON}`, `${base.name}: ${reason}`, "utf8");
  await recordFile(db, { ...base, status: "rejected", rows, reason });
  run.files.push({
    ...base,
    status: "rejected",
    rows,
    movedTo,
    reason: lines.slice(0, 5).join("; "),
  });
}

/**
 * Moves a taken file to imported/, then checks it is still what was read: same size and sha256.
 * A producer writing in place can go on after the settle time (a pause), even after the claim;
 * what it wrote later was never imported. Such a file is moved back to processing/, where the
 * next cycle takes it in whole (the entries already imported come back unchanged), and the
 * cycle fails saying so. `taken` says what became of the bytes read. Answers where the file
 * is, and whether it is done.
 */
async function moveToImported(
  run: Intake,
  base: FileBase,
  path: string,
  taken: string,
): Promise<{ at: string; done: boolean }> {
  let movedTo: string;
  try {
    movedTo = await moveInto(path, join(run.folder, "imported"), base.name, run.now);
  } catch (error) {
    const failure = `${taken}; not moved to imported/: ${errorText(error)}; it waits in processing/ and the next cycle moves it`;
    run.failed.push({ name: base.name, error: failure, at: path });
    return { at: path, done: false };
  }
  const info = await stat(movedTo);
  const sha256 = info.size === base.sizeBytes ? sha256Of(await readFile(movedTo)) : undefined;
  if (sha256 === base.sha256) return { at: movedTo, done: true };
  let at = movedTo;
  let then = "moved back to processing/: the next cycle takes in the whole file";
  try {
    at = await moveInto(movedTo, join(run.folder, PROCESSING), base.name, run.now);
  } catch (error) {
    then = `left in imported/ (${errorText(error)}): ${LEFT_IN_IMPORTED}`;
  }
  const now = `${info.size} bytes${sha256 ? ` (sha256 ${sha256})` : ""}`;
  const failure = `changed while it was taken in (${taken}, from the ${base.sizeBytes} bytes read, sha256 ${base.sha256}); it now has ${now}; ${then}`;
  run.failed.push({ name: base.name, error: failure, at });
  return { at, done: false };
}

/** What becomes of a changed file that could not be moved back from imported/. */
const LEFT_IN_IMPORTED =
  "the next cycles try again for 24 h; or move it to processing/ (or drop it again) to take in the whole file";

/**
 * Looks again at the files moved to imported/ within the last 24 hours (recheck-imported.ts):
 * one whose content is no longer content that was imported (a producer wrote to it after the
 * cycle that took it in) goes back to processing/, where the next cycle takes it in whole (the
 * entries already imported come back unchanged), and this cycle fails saying so.
 */
async function recheckRecentImports(db: Db, run: Intake): Promise<void> {
  const { changed, unreadable } = await recheckImported(db, join(run.folder, "imported"), run.now);
  run.failed.push(...unreadable);
  for (const file of changed) {
    let at = file.path;
    let then = "moved back to processing/: the next cycle takes in the whole file";
    try {
      at = await moveInto(file.path, join(run.folder, PROCESSING), file.name, run.now);
    } catch (error) {
      then = `left in imported/ (${errorText(error)}): ${LEFT_IN_IMPORTED}`;
    }
    const failure = `changed after it was taken in (written to after the cycle that imported it): ${file.path} now has ${file.sizeBytes} bytes (sha256 ${file.sha256}), content never imported; ${then}`;
    run.failed.push({ name: file.name, error: failure, at });
  }
}

/**
 * One claimed file (in processing/ at `path`): imported in one transaction with its ledger_files
 * row, or rejected. A file that cannot be read is rejected with the error. Rows the checks pass
 * but the database refuses (a data error, SQLSTATE class 22 or 23) reject this file alone; any
 * other database error fails the intake, leaving the file in processing/ for the next cycle.
 */
async function takeFile(db: Db, run: Intake, name: string, path: string): Promise<void> {
  run.inHand = { name, at: path };
  await takeClaimed(db, run, name, path);
  run.inHand = undefined;
}

async function takeClaimed(db: Db, run: Intake, name: string, path: string): Promise<void> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const size = (await stat(path).catch(() => undefined))?.size ?? 0;
    const base = { name, sha256: "", sizeBytes: size };
    return reject(db, run, base, path, 0, "the file cannot be read", [errorText(error)]);
  }
  const base = { name, sha256: sha256Of(bytes), sizeBytes: bytes.length };
  // Found again after a crash between the commit and the move, or dropped twice.
  if (await wasImported(db, base.sha256)) {
    const { at, done } = await moveToImported(run, base, path, "already imported before");
    if (!done) return;
    await recordFile(db, { ...base, status: "duplicate", rows: 0 });
    run.files.push({ ...base, status: "duplicate", rows: 0, movedTo: at });
    return;
  }
  let result: Awaited<ReturnType<typeof importLedger>>;
  try {
    result = await importLedger(db, bytes.toString("utf8"), {
      sourceFile: name,
      entities: run.entities,
      alsoInTransaction: (tx, rows) => recordFile(tx, { ...base, status: "imported", rows }),
    });
  } catch (error) {
    if (error instanceof LedgerImportError) {
      const lines = error.errors.map((e) => `line ${e.line}: ${e.reason}`);
      const why = `${lines.length} bad row(s)`;
      return reject(db, run, base, path, error.errors.length, why, lines);
    }
    // The transaction rolled back; rows is 0 since the database does not say which row it was.
    const refusal = dataRefusal(error);
    if (refusal === undefined) throw error;
    // Masked like every other reason: the database's message may quote a value.
    return reject(db, run, base, path, 0, "the database refused a row", [errorText(refusal)]);
  }
  const { at } = await moveToImported(run, base, path, `imported ${result.rows} row(s)`);
  run.files.push({
    ...base,
    status: "imported",
    rows: result.rows,
    inserted: result.inserted,
    updated: result.updated,
    movedTo: at,
  });
}

/**
 * The summary's text for an intake with failed files: each one and why. What was taken in
 * besides is in the summary's lists, which it stands beside.
 */
function failureText(run: Intake): string {
  const failed = run.failed.map((f) => `${f.name}: ${f.error}`).join("; ");
  const text = `${run.failed.length} ledger file(s) not finished: ${failed}`;
  if (run.stopped === undefined) return text;
  const { cause, untried } = run.stopped;
  const left =
    untried.length === 0 ? "" : `; not tried, left for the next cycle: ${untried.join(", ")}`;
  return `${run.failed.length > 0 ? `${text}; ` : ""}the intake stopped: ${cause}${left}`;
}

/**
 * Records what stopped the intake: the file in hand (named, with where it is now) as failed, and
 * the files it did not get to. Its lists keep what it took in before.
 */
async function stopIntake(run: Intake, error: unknown, untried: string[]): Promise<void> {
  const cleanup = stagingCleanupFailureOf(error);
  const cause = `${errorText(error)}${
    cleanup === undefined
      ? ""
      : ` (clearing its staged rows failed too, the next import clears them: ${errorText(cleanup)})`
  }`;
  run.stopped = { cause, untried };
  const file = run.inHand;
  if (file === undefined) return;
  run.inHand = undefined;
  // A database fault mid-import rolls it back; one after the move (recording a duplicate or a
  // rejection) leaves the file moved on but unrecorded, which the next cycle need not redo.
  const waits = await stat(file.at).then(
    () => `it waits in ${PROCESSING}/ and the next cycle takes it in again`,
    () => `it was moved on from ${PROCESSING}/ before the error`,
  );
  run.failed.push({
    name: file.name,
    error: `stopped the intake: ${cause}; ${waits}`,
    at: file.at,
  });
}

/**
 * Takes in every settled *.csv of the folder, oldest name first, after any file a stopped
 * intake left in processing/ and a look again at the files imported lately. A file that cannot
 * be taken is rejected on its own (it cannot be read, or has bad rows), or left where it is and
 * reported as failed (it cannot be claimed or moved on, or changed): the others still go in.
 * Throws only when the folder cannot be read. Any other error (mostly the database failing)
 * stops the intake: the answer names the file in hand and the cause in `failed` and `error`,
 * beside the lists of what it took in before; that file waits in processing/ for the next cycle.
 */
export async function intakeLedgerFolder(
  db: Db,
  folder: string,
  opts: { now?: Date; settleMs?: number; entities?: LedgerEntities } = {},
): Promise<FolderIntake> {
  const now = opts.now ?? new Date();
  const claimed = join(folder, PROCESSING);
  // Listed first: a folder that is not there fails the intake, and is never created here. The
  // error names the setting, which a bare "ENOENT: scandir" does not.
  const dropped = await csvNames(folder, true).catch((error: NodeJS.ErrnoException) => {
    throw new Error(
      `the ledger folder ${folder} (RECONCILER_LEDGER_DIR, --ledger-dir) cannot be read: ${error.code ?? error.message}`,
      { cause: error },
    );
  });
  const checked = await checkDrops(folder, dropped, now, opts.settleMs ?? SETTLE_MS);
  const run: Intake = {
    folder,
    now,
    files: [],
    waiting: checked.waiting,
    failed: [],
    aheadOfClock: checked.aheadOfClock,
    entities: opts.entities,
  };
  // The files not taken in yet: what an error stopping the intake leaves untried.
  const untried = checked.settled.map((s) => s.name);
  try {
    // Claimed before a crash or a failed import: they were settled then; idempotency by sha256
    // (and entry_id) makes taking them again safe whether or not their import committed.
    await mkdir(claimed, { recursive: true });
    const reclaimed = await csvNames(claimed);
    untried.unshift(...reclaimed);
    for (const name of reclaimed) {
      untried.shift();
      await takeFile(db, run, name, join(claimed, name));
    }
    // After processing/ (a file moved back waits there for the next cycle, as one that changed
    // while it was taken in), before the new drops (just checked by their own cycle).
    await recheckRecentImports(db, run);
    for (const { name, info } of checked.settled) {
      untried.shift();
      await claimAndTake(db, run, name, info);
    }
  } catch (error) {
    // Mostly a database fault (the connection dropped, the server gone): no file's fault, and
    // one that would most likely meet the next file too: the intake stops, naming the file in hand and why,
    // and keeps the lists of what it took in before, which are true all the same.
    await stopIntake(run, error, untried);
  }
  const { files, waiting, failed, aheadOfClock } = run;
  const intake: FolderIntake = { folder, files, waiting, failed, aheadOfClock };
  // Only when a file failed or the intake stopped: the property's presence is what marks the
  // step failed.
  if (failed.length > 0 || run.stopped !== undefined) intake.error = failureText(run);
  return intake;
}

/** A settled drop: claimed into processing/, then taken in (or left, or failed, on its own). */
async function claimAndTake(
  db: Db,
  run: Intake,
  name: string,
  info: Parameters<typeof isUnchanged>[1],
): Promise<void> {
  const path = join(run.folder, name);
  // Changed since it was found settled (the files before it took a while): a later cycle's.
  if (!(await isUnchanged(path, info))) {
    run.waiting.push(name);
    return;
  }
  let at: string;
  try {
    // Atomic on one file system: a producer replacing the file from here on writes a new
    // file, taken in by a later cycle. A symlink (a Kubernetes ConfigMap's files are ones,
    // relative to the folder) would point nowhere once moved: its target's content is
    // claimed as a file, and the link removed.
    const copy = (await lstat(path)).isSymbolicLink();
    at = await moveInto(path, join(run.folder, PROCESSING), name, run.now, { copy });
  } catch (error) {
    const failure = `not claimed (moved into processing/): ${errorText(error)}`;
    run.failed.push({ name, error: failure, at: path });
    return;
  }
  await takeFile(db, run, name, at);
}
