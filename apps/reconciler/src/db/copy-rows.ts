// Bulk loading with COPY (text format), on either driver: imports and the bench's baseline.
import { backendOf } from "./backend";
import type { Db } from "./database";

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
// COPY's text format escapes exactly these.
const SPECIAL = /[\\\t\n\r]/;

/**
 * One field in COPY's text format: null as \N, and backslash, tab, newline and carriage return
 * escaped so that the value arrives exactly as given.
 */
export function copyField(value: string | null | undefined): string {
  if (value === null || value === undefined) return "\\N";
  if (!SPECIAL.test(value)) return value;
  return value
    .replaceAll("\\", "\\\\")
    .replaceAll("\t", "\\t")
    .replaceAll("\n", "\\n")
    .replaceAll("\r", "\\r");
}

/** A COPY text-format line (fields already written with copyField), newline included. */
export function copyLine(fields: readonly string[]): string {
  return `${fields.join("\t")}\n`;
}

/**
 * Streams lines (copyLine) into `table` (columns given in order) with COPY. Not transactional
 * with other work: it uses a connection of its own on a server. `db` is the top-level database.
 */
export async function copyRows(
  db: Db,
  opts: {
    table: string;
    columns: readonly string[];
    lines: Iterable<string> | AsyncIterable<string>;
  },
): Promise<void> {
  for (const name of [opts.table, ...opts.columns])
    if (!IDENTIFIER.test(name)) throw new TypeError(`not a plain identifier: ${name}`);
  const statement = `COPY ${opts.table} (${opts.columns.join(", ")})`;
  await backendOf(db).copyFrom(statement, opts.lines);
}
