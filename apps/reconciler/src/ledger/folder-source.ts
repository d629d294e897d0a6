// The watched ledger folder (RECONCILER_LEDGER_DIR): every *.csv dropped there is taken in once,
// all or nothing, then moved to imported/; a bad file goes to rejected/ with <name>.reason.txt
// naming each bad line and rule, and nothing of it is imported. Files still being written (a
// .part name, or changed within the last few seconds) wait for the next cycle.
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";
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

async function moveInto(folder: string, sub: string, name: string, now: Date): Promise<string> {
  const dir = join(folder, sub);
  await mkdir(dir, { recursive: true });
  const target = join(dir, await freeName(dir, name, now));
  await rename(join(folder, name), target);
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

/** One settled file: imported in one transaction with its ledger_files row, or rejected. */
async function takeFile(db: Db, folder: string, name: string, now: Date) {
  const bytes = await readFile(join(folder, name));
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  const base = { name, sha256, sizeBytes: bytes.length };
  // Found again after a crash between the commit and the move, or dropped twice.
  if (await alreadyImported(db, sha256)) {
    await recordFile(db, { ...base, status: "duplicate", rows: 0 });
    return {
      ...base,
      status: "duplicate" as const,
      rows: 0,
      movedTo: await moveInto(folder, "imported", name, now),
    };
  }
  const parsed = parseLedger(bytes.toString("utf8"));
  if (parsed.errors.length > 0) {
    const lines = parsed.errors.map((e) => `line ${e.line}: ${e.reason}`);
    const reason = `${parsed.errors.length} bad row(s), nothing imported\n${lines.join("\n")}\n`;
    await recordFile(db, { ...base, status: "rejected", rows: parsed.errors.length, reason });
    const movedTo = await moveInto(folder, "rejected", name, now);
    await writeFile(`${movedTo}.reason.txt`, `${name}: ${reason}`, "utf8");
    return {
      ...base,
      status: "rejected" as const,
      rows: parsed.errors.length,
      movedTo,
      reason: lines.slice(0, 5).join("; "),
    };
  }
  const result = await importLedgerEntries(db, parsed.entries, {
    sourceFile: name,
    alsoInTransaction: (tx) =>
      recordFile(tx, { ...base, status: "imported", rows: parsed.entries.length }),
  });
  return {
    ...base,
    status: "imported" as const,
    rows: result.rows,
    inserted: result.inserted,
    updated: result.updated,
    movedTo: await moveInto(folder, "imported", name, now),
  };
}

/**
 * Takes in every settled *.csv of the folder, oldest name first. A file that cannot be taken is
 * rejected on its own: the others still go in. Throws only when the folder itself cannot be
 * read or the database fails (then nothing of the file in hand was committed or moved).
 */
export async function intakeLedgerFolder(
  db: Db,
  folder: string,
  opts: { now?: Date; settleMs?: number } = {},
): Promise<FolderIntake> {
  const now = opts.now ?? new Date();
  const settleMs = opts.settleMs ?? SETTLE_MS;
  const entries = await readdir(folder, { withFileTypes: true });
  const files: LedgerFileOutcome[] = [];
  const waiting: string[] = [];
  const names = entries
    .filter((e) => e.isFile() && !e.name.startsWith("."))
    .map((e) => e.name)
    .sort();
  for (const name of names) {
    if (name.endsWith(".part")) {
      waiting.push(name);
      continue;
    }
    if (!name.toLowerCase().endsWith(".csv")) continue;
    const info = await stat(join(folder, name));
    if (now.getTime() - info.mtimeMs < settleMs) {
      waiting.push(name);
      continue;
    }
    files.push(await takeFile(db, folder, name, now));
  }
  return { folder, files, waiting };
}
