// A time as the reconciler prints it: ISO 8601 in UTC to the second ("2026-11-27T10:00:00Z").
import { type SQL, sql } from "drizzle-orm";

/** SQL of the timestamptz expression `column` as that text (NULL stays NULL). */
export const utcText = (column: string): SQL =>
  sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`);
