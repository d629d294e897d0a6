// Test support: the SQL of docs/finance-queries.md, so the tests run the queries as documented.
import { readFileSync } from "node:fs";

/** The first SQL block of each numbered question of docs/finance-queries.md, by number. */
export function documentedQueries(): Map<number, string> {
  const queries = new Map<number, string>();
  for (const [number, blocks] of documentedBlocks())
    if (blocks[0] !== undefined) queries.set(number, blocks[0]);
  return queries;
}

/** Every SQL block of each numbered question of docs/finance-queries.md, by number. */
export function documentedBlocks(): Map<number, string[]> {
  const doc = readFileSync(new URL("../../../../docs/finance-queries.md", import.meta.url), "utf8");
  const queries = new Map<number, string[]>();
  for (const section of doc.split(/^## /m).slice(1)) {
    const number = Number(/^(\d+)\./.exec(section)?.[1]);
    const blocks = [...section.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1] as string);
    if (number && blocks.length > 0) queries.set(number, blocks);
  }
  return queries;
}
