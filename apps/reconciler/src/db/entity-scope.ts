// The limit of a console account to some entities ('' the merchant itself, a sub-merchant's
// merchantNo) as one SQL condition, applied wherever the console reads breaks or figures.
import { type SQL, sql } from "drizzle-orm";

/** `column` (an entity column) is one of `entities`; none given, nothing is. */
export function entityScope(column: string, entities: readonly string[]): SQL {
  return sql`${sql.raw(column)} IN (SELECT jsonb_array_elements_text(${JSON.stringify(entities)}::jsonb))`;
}
