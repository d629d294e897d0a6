// Test support: the SQL of docs/finance-queries.md, so the tests run the queries as documented.
import { readFileSync } from "node:fs";

/** The first SQL block of each numbered question of docs/finance-queries.md, by number. */
export function documentedQueries(): Map<number, string> {
  const doc = readFileSync(new URL("../../../../docs/finance-queries.md", import.meta.url), "utf8");
  const queries = new Map<number, string>();
  for (const section of doc.split(/^## /m).slice(1)) {
    const number = Number(/^(\d+)\./.exec(section)?.[1]);
    const block = /```sql\n([\s\S]*?)```/.exec(section)?.[1];
    if (number && block) queries.set(number, block);
  }
  return queries;
}
