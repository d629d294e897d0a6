// A written-off break that a match run resolves (the missing record arrived, the ledger was
// corrected, a manual match or a confirmed proposal paired its records) has no difference left,
// so its write-off no longer stands: the run reverses the write-off's journal entries, as a
// lapse does, with a `lapse` audit row (actor "reconciler") saying why, and ends the acceptance
// so a difference that comes back is open, to be decided again. Otherwise the journal keeps an
// adjustment for money that no figure holds any more.
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";
import { notProposed } from "../store/proposed-groups";
import { endAcceptances } from "./lapse-acceptances";
import { unreversed } from "./reverse-write-off";

/**
 * Reverses the write-offs of the resolved breaks whose journal entries are not reversed yet;
 * answers how many breaks. One statement, inside the run's transaction after its break writes
 * (run-match.ts), under its lock: a write-off committed before the run is seen here, one waiting
 * for the run sees the break resolved and is refused. Driven by the journal (a few rows), not
 * by the resolved breaks (most of them). A resolved break's records are gone from break_records
 * (the run keeps the unresolved ones'), so the matches its audit row names are found from its
 * entry and provider ref.
 */
export async function reverseResolvedWriteOffs(db: Db, runId: string): Promise<number> {
  const ended = await queryRows<{ break_id: string }>(
    db,
    sql`WITH resolved AS (
        SELECT DISTINCT b.break_id, b.class, b.amount, b.currency, b.entry_id, b.provider_ref
        FROM journal_entries e JOIN breaks b ON b.break_id = e.break_id
        WHERE b.status = 'resolved' AND ${unreversed("e")}
      ), checked AS (
        SELECT r.break_id, r.class, r.amount, r.currency,
          (SELECT string_agg(DISTINCT m.match_id, ', ' ORDER BY m.match_id)
            FROM match_members m
            WHERE ${sql.raw(notProposed("m"))} AND ((m.side = 'ledger' AND m.record_ref = r.entry_id)
              OR (m.side = 'provider' AND m.record_ref = r.provider_ref))) AS matched
        FROM resolved r JOIN break_workflow w ON w.break_id = r.break_id
        FOR UPDATE OF w
      ), ${endAcceptances(
        sql`'write-off reversed: the break resolved'
          || coalesce(' (its records are matched: ' || matched || ')', '')
          || ' (match run ' || ${runId} || ')'`,
      )}`,
  );
  return ended.length;
}
