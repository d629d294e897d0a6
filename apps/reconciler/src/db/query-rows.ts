// Rows of a raw SQL statement, whichever driver ran it.
import { type SQL, sql } from "drizzle-orm";
import type { Db } from "./database";

/**
 * `db.execute` answers an array of rows on postgres.js and `{ rows }` on PGlite; this returns
 * the rows either way. Under openDatabase() numeric, bigint, json(b) and timestamptz all arrive
 * as Postgres's text; read times through drizzle's query builder (which maps them to Dates) or
 * select them as epoch milliseconds.
 */
export async function queryRows<T extends Record<string, unknown>>(
  db: Db,
  query: SQL,
): Promise<T[]> {
  const result = (await db.execute(query)) as unknown;
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/** queryRows for a fixed SQL text without parameters (DDL, checks, tools outside the app). */
export function queryText<T extends Record<string, unknown>>(db: Db, text: string): Promise<T[]> {
  return queryRows<T>(db, sql.raw(text));
}

/**
 * Runs a fixed SQL text and answers how many rows it wrote (INSERT, UPDATE, DELETE, CREATE TABLE
 * AS) or returned: postgres.js answers it as the result's `count`, PGlite as `affectedRows`.
 */
export async function queryCount(db: Db, text: string): Promise<number> {
  const result = (await db.execute(sql.raw(text))) as unknown as {
    count?: number | null;
    affectedRows?: number;
  };
  return Number(result.count ?? result.affectedRows ?? 0);
}

/** A boolean column as either driver answers it (true, or Postgres's text "t"). */
export const isTrue = (value: unknown): boolean =>
  value === true || value === "t" || value === "true";
