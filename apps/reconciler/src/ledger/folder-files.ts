// What the ledger folder source and its look back at imported/ both read of files: the ledger
// file names of a folder, and a file's content hash.
import { createHash } from "node:crypto";
import { readdir } from "node:fs/promises";

/** sha256 (hex) of a file's bytes: how imported content is recognised. */
export const sha256Of = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/**
 * Sorted names of the *.csv files (or links) of `dir`, any case, dot files left out (and the
 * *.part files of one still being written when `withPart`).
 */
export async function csvNames(dir: string, withPart = false): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => (e.isFile() || e.isSymbolicLink()) && !e.name.startsWith("."))
    .map((e) => e.name)
    .filter((n) => n.toLowerCase().endsWith(".csv") || (withPart && n.endsWith(".part")))
    .sort();
}
