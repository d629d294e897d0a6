// The break after this one in the queue (open breaks in the queue's order: priority, the
// largest amount first, then id), so that whoever
// works the queue goes on from a break page without going back to the list; after the last,
// the first again. None when no other break is open. A limited console account's next break is
// one of its entities'.
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { entityScope } from "../db/entity-scope";
import { queryRows } from "../db/query-rows";

export async function nextOpenBreak(
  db: Db,
  breakId: string,
  entities?: readonly string[],
): Promise<string | undefined> {
  const [row] = await queryRows<{ break_id: string }>(
    db,
    sql`SELECT break_id FROM finance_open_breaks WHERE status = 'open' AND break_id <> ${breakId}
      AND ${entities === undefined ? sql`true` : entityScope("entity", entities)}
      ORDER BY (priority, -amount, break_id)
          <= (SELECT priority, -amount, break_id FROM breaks WHERE break_id = ${breakId}),
        priority, amount DESC, break_id
      LIMIT 1`,
  );
  return row?.break_id;
}
