// When and why a break was resolved. A match run resolves a break it no longer finds (its
// records now match, or changed so that nothing differs); the break keeps its row with the
// run and the time (breaks.resolved_at, resolved_run_id), and its records now sit in a match
// when one holds them.
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";
import { utcText } from "../db/utc-text";

export interface BreakResolution {
  /** When the run resolved it (its as-of time), UTC. */
  at: string;
  runId: string;
  /** Why, in a sentence: the run no longer finds the difference, and what now matches. */
  why: string;
}

/** The resolution of a resolved break, undefined for any other. */
export async function breakResolution(
  db: Db,
  breakId: string,
): Promise<BreakResolution | undefined> {
  const [row] = await queryRows<{
    at: string;
    run_id: string;
    provider_ref: string | null;
    entry_id: string | null;
    matched: string | null;
  }>(
    db,
    sql`SELECT ${utcText("b.resolved_at")} AS at,
        b.resolved_run_id::text AS run_id, b.provider_ref, b.entry_id,
        (SELECT string_agg(DISTINCT m.match_id, ', ' ORDER BY m.match_id) FROM match_members m
          WHERE (m.side = 'ledger' AND m.record_ref = b.entry_id)
             OR (m.side = 'provider' AND m.record_ref = b.provider_ref)) AS matched
      FROM breaks b WHERE b.break_id = ${breakId} AND b.status = 'resolved'`,
  );
  if (!row) return undefined;
  const records = [row.entry_id && `entry ${row.entry_id}`, row.provider_ref]
    .filter(Boolean)
    .join(" and ");
  const why = row.matched
    ? `the run no longer finds this difference: ${records} now match (${row.matched})`
    : `the run no longer finds this difference: ${records || "its records"} changed or left`;
  return { at: row.at, runId: row.run_id, why };
}
