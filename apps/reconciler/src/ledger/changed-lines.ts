// A ledger file read again under the same name (a corrected export dropped again, `ledger
// import` run on it again) costs what changed in it: each data line's md5 is kept with the
// file's name (ledger_source_files), and a later import parses, checks and merges only the lines
// not among them. Everything the whole import would do still holds: the header must be the
// same, an entry_id on a new line that an unchanged line holds is refused as a repeat, and the
// shortcut is taken only when the table still holds exactly what the last import of the file
// left (no entry of it changed or removed since, by hand or by another source: the count of its
// entries and their last change say so); otherwise the whole file is read, as the first time.
import { hash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";
import type { LedgerRowError, ParsedLedger } from "./parse-ledger";

const md5 = (text: string) => hash("md5", text, "base64");
/** An md5 in Base64: kept one after another, sliced back without decoding. */
const HASH_CHARS = 24;

/** The text's physical lines with their 1-based numbers; blank lines left out, as CSV does. */
interface TextLine {
  line: number;
  text: string;
  hash: string;
}

/**
 * The header and data lines of `text`, or undefined when a record may span lines (a line with
 * an odd number of quotes opens or closes a quoted line break): such a file is read whole.
 * Split on "\n" and quotes found by indexOf (no regular expression per line): this runs over
 * every line of a file read again, however few changed.
 */
function physicalLines(text: string): { header: TextLine; rows: TextLine[] } | undefined {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const all = body.includes("\r") ? body.split(/\r\n|\n|\r/) : body.split("\n");
  const lines: TextLine[] = [];
  for (let i = 0; i < all.length; i++) {
    const line = all[i] as string;
    if (line === "") continue;
    let quotes = 0;
    for (let q = line.indexOf('"'); q >= 0; q = line.indexOf('"', q + 1)) quotes++;
    if ((quotes & 1) === 1) return undefined;
    lines.push({ line: i + 1, text: line, hash: md5(line) });
  }
  const [header, ...rows] = lines;
  return header ? { header, rows } : undefined;
}

/** What a file holds now, set against what its last import held. */
type LineDiff =
  | { kind: "whole" }
  | {
      kind: "changed";
      /** The header and the lines not held last time, as a ledger text of their own. */
      text: string;
      /** Line of the changed text → line of the file. */
      lineOf: (changedLine: number) => number;
      /** Per data line (file order): its entry_id when it was held last time; unset if not. */
      keptIds: (string | undefined)[];
      /** How many data lines the file has. */
      rows: number;
      /** The file's lines to store once the import commits (entry ids filled in then). */
      lines: TextLine[];
      headerHash: string;
      /** When the last import was (imports of one file racing: rememberLines checks it). */
      lastImportedAt: string;
    };

/**
 * Sets `text` against the last import of `sourceFile`: "whole" when there is none, the header
 * changed, a line repeats, a record spans lines, or the table no longer holds what that import
 * left; else the lines that changed.
 */
export async function diffLines(db: Db, sourceFile: string, text: string): Promise<LineDiff> {
  const split = physicalLines(text);
  if (!split) return { kind: "whole" };
  const [stored] = await queryRows<{
    header_hash: string;
    line_hashes: string;
    entry_ids: string;
    imported_at: string;
    fits: boolean | string;
  }>(
    db,
    sql`SELECT f.header_hash, f.line_hashes, f.entry_ids, f.imported_at::text AS imported_at,
        f.entries = (SELECT count(*) FROM ledger_entries e WHERE e.source_file = f.source_file)
          AND NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.source_file = f.source_file
            AND e.updated_at > f.imported_at) AS fits
      FROM ledger_source_files f WHERE f.source_file = ${sourceFile}`,
  );
  const headerHash = split.header.hash;
  if (!stored || !(stored.fits === true || stored.fits === "t")) return { kind: "whole" };
  if (stored.header_hash !== headerHash) return { kind: "whole" };
  const hashes = stored.line_hashes;
  const ids = stored.entry_ids === "" ? [] : stored.entry_ids.split("\n");
  // A file read again is mostly its last import's lines in the same places: each line is
  // compared with the hash kept at its own place first (no lookup table of every hash). The
  // kept hashes are distinct (a file holding a line twice is never kept: see below).
  const rows = split.rows;
  const keptIds: (string | undefined)[] = new Array(rows.length);
  const inPlace = new Uint8Array(rows.length);
  const elsewhere: number[] = [];
  for (let i = 0; i < rows.length; i++) {
    if (i < ids.length && hashes.startsWith((rows[i] as TextLine).hash, i * HASH_CHARS)) {
      keptIds[i] = ids[i];
      inPlace[i] = 1;
    } else elsewhere.push(i);
  }
  // The other lines: held last time at another place (moved), or not at all (changed, new).
  const rowOfHash = new Map<string, number>();
  for (const i of elsewhere) {
    const h = (rows[i] as TextLine).hash;
    // A line twice is an entry_id twice: the whole read says which.
    if (rowOfHash.has(h)) return { kind: "whole" };
    rowOfHash.set(h, i);
  }
  if (rowOfHash.size > 0) {
    // One pass over the kept hashes; only those whose first characters some other line's hash
    // starts with are sliced and looked up.
    const prefix = (h: string, at: number) =>
      (h.charCodeAt(at) << 14) | (h.charCodeAt(at + 1) << 7) | h.charCodeAt(at + 2);
    const prefixes = new Set<number>();
    for (const h of rowOfHash.keys()) prefixes.add(prefix(h, 0));
    for (let j = 0; j < ids.length; j++) {
      const at = j * HASH_CHARS;
      if (!prefixes.has(prefix(hashes, at))) continue;
      const i = rowOfHash.get(hashes.slice(at, at + HASH_CHARS));
      if (i === undefined) continue;
      // Kept line j is also line j of the file, in its place: this line repeats it.
      if (j < rows.length && inPlace[j] === 1) return { kind: "whole" };
      keptIds[i] = ids[j];
    }
  }
  const changed: TextLine[] = [];
  for (const i of elsewhere) if (keptIds[i] === undefined) changed.push(rows[i] as TextLine);
  const lines = [split.header, ...changed];
  return {
    kind: "changed",
    text: `${lines.map((l) => l.text).join("\n")}\n`,
    lineOf: (changedLine) => lines[changedLine - 1]?.line ?? changedLine,
    keptIds,
    rows: split.rows.length,
    lines: split.rows,
    headerHash,
    lastImportedAt: stored.imported_at,
  };
}

/**
 * The changed lines' entries and errors with the file's line numbers, a new line repeating an
 * entry_id an unchanged line holds refused as the whole read would.
 */
export function onFileLines(
  parsed: ParsedLedger,
  diff: Extract<LineDiff, { kind: "changed" }>,
): ParsedLedger {
  const errors: LedgerRowError[] = parsed.errors.map((e) => ({ ...e, line: diff.lineOf(e.line) }));
  const entries: ParsedLedger["entries"] = [];
  // The kept lines holding an entry_id of a changed line (one pass over the kept lines).
  const wanted = new Set(parsed.entries.map((e) => e.entry.entryId));
  const keptLineOf = new Map<string, number>();
  diff.keptIds.forEach((id, i) => {
    if (id !== undefined && wanted.has(id)) keptLineOf.set(id, (diff.lines[i] as TextLine).line);
  });
  for (const { line, entry } of parsed.entries) {
    const fileLine = diff.lineOf(line);
    const other = keptLineOf.get(entry.entryId);
    if (other !== undefined)
      errors.push({
        line: Math.max(fileLine, other),
        reason: `entry_id "${entry.entryId}" already appears on line ${Math.min(fileLine, other)}`,
      });
    else entries.push({ line: fileLine, entry });
  }
  return { entries, errors: errors.sort((a, b) => a.line - b.line) };
}

/**
 * Keeps what the file holds now (every data line's hash and entry_id), in the import's
 * transaction, with the count of the entries naming it as their source after it.
 */
export async function rememberLines(
  tx: Db,
  sourceFile: string,
  file: {
    headerHash: string;
    lines: readonly TextLine[];
    /** The entry_id of each line read (by its line number in the file). */
    entryIdOfLine: Map<number, string>;
    /** The entry_id of each line kept from the last import, by its place (LineDiff). */
    keptIds?: readonly (string | undefined)[];
    /** Set when only the changed lines were read: the import they were set against. */
    lastImportedAt?: string;
  },
): Promise<void> {
  const hashes = file.lines.map((l) => l.hash).join("");
  const ids = file.lines
    .map((l, i) => file.keptIds?.[i] ?? file.entryIdOfLine.get(l.line) ?? "")
    .join("\n");
  const [row] = await queryRows<{ kept: boolean | string }>(
    tx,
    sql`WITH kept AS (
        INSERT INTO ledger_source_files AS f (source_file, header_hash, line_hashes, entry_ids,
          entries, imported_at)
        VALUES (${sourceFile}, ${file.headerHash}, ${hashes}, ${ids},
          (SELECT count(*) FROM ledger_entries WHERE source_file = ${sourceFile}), now())
        ON CONFLICT (source_file) DO UPDATE SET header_hash = excluded.header_hash,
          line_hashes = excluded.line_hashes, entry_ids = excluded.entry_ids,
          entries = excluded.entries, imported_at = excluded.imported_at
        WHERE ${file.lastImportedAt ?? null}::timestamptz IS NULL
          OR f.imported_at = ${file.lastImportedAt ?? null}::timestamptz
        RETURNING 1)
      SELECT EXISTS (SELECT 1 FROM kept) AS kept`,
  );
  // Another import of the file committed after this one read the lines it changed: what this
  // one merged was set against an older file. Rolled back; the next try reads it anew.
  if (!(row?.kept === true || row?.kept === "t"))
    throw new Error(
      `${sourceFile} was imported by another process meanwhile; nothing of this import was kept: import it again`,
    );
}

/** Drops what the file's last import held (its next import reads it whole). */
export async function forgetLines(tx: Db, sourceFile: string): Promise<void> {
  await queryRows(tx, sql`DELETE FROM ledger_source_files WHERE source_file = ${sourceFile}`);
}

/** The lines of a text read whole, for rememberLines; undefined when a record spans lines. */
export function wholeLines(text: string): { headerHash: string; lines: TextLine[] } | undefined {
  const split = physicalLines(text);
  return split && { headerHash: split.header.hash, lines: split.rows };
}
