// The columns an incremental run's copies hold (scoped-tables.ts, and the scope's card records
// and entries, scope.ts), derived from the statements that read the copies.
import { SOURCE_TABLES, type SourceTable } from "./source-tables";

/**
 * The columns each copy holds: the ones a statement of the run names (`reads`: the passes, the
 * provider_items view, the scope's own statements, the finance days function). The provider's
 * payload as fetched (raw), its hash and the sync's bookkeeping are read by none and make a card
 * record's row ~1 KB: copied whole, 12,000 card records (11 MB, 1.4 MB narrow) spill the
 * session's temporary buffers, and the copy costs twice as much and its indexes more.
 */
export interface CopiedColumns {
  /** The copy's columns of `table`, qualified by `alias` when given, as a select list. */
  of(table: SourceTable, alias?: string): string;
}

/** The columns of the source tables, in table order (read before any copy exists). */
export const SOURCE_COLUMNS = `SELECT c.relname AS tablename, a.attname AS column
  FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
  WHERE c.relnamespace = current_schema()::regnamespace AND a.attnum > 0 AND NOT a.attisdropped
    AND c.relname IN (${SOURCE_TABLES.map((t) => `'${t}'`).join(", ")})
  ORDER BY c.relname, a.attnum`;

/** The source columns `reads` names (every column of a table none of whose columns it names). */
export function copiedColumns(
  columns: readonly { tablename: SourceTable; column: string }[],
  reads: string,
): CopiedColumns {
  const named = namedIn(reads);
  const kept = new Map<SourceTable, string[]>();
  for (const { tablename, column } of columns)
    if (named(column)) kept.set(tablename, [...(kept.get(tablename) ?? []), column]);
  return {
    of: (table, alias) => {
      const list = kept.get(table);
      if (!list) return alias ? `${alias}.*` : "*";
      return list.map((c) => (alias ? `${alias}.${c}` : c)).join(", ");
    },
  };
}

/** Whether `reads` names a column (as a word). */
export const namedIn = (reads: string) => (column: string) =>
  new RegExp(`\\b${column}\\b`).test(reads);
