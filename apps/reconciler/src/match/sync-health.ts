// Is the provider data complete enough to judge? Sync lag, failed or drifted windows, failed
// runs and serviceIds whose account transactions were never fetched make a run incomplete.
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";

/** Why the provider data cannot be trusted as of `asOf`; empty when it can. */
export async function syncProblems(db: Db, asOf: Date, maxLagMs: number): Promise<string[]> {
  const reasons: string[] = [];
  const at = asOf.toISOString();
  const marks = await queryRows<{ stream: string; lag_ms: string }>(
    db,
    sql`SELECT stream, floor(extract(epoch FROM (${at}::timestamptz - watermark)) * 1000)::bigint AS lag_ms
        FROM sync_watermarks ORDER BY stream`,
  );
  if (marks.length === 0) reasons.push("never synced: no stream has a watermark");
  for (const m of marks)
    if (Number(m.lag_ms) > maxLagMs)
      reasons.push(
        `sync lag: ${m.stream} is synced up to ${Math.round(Number(m.lag_ms) / 60_000)} min before the run (limit ${Math.round(maxLagMs / 60_000)} min)`,
      );
  const windows = await queryRows<{ stream: string; state: string; n: string }>(
    db,
    sql`SELECT stream, state, count(*) AS n FROM sync_windows WHERE state IN ('failed', 'drifted')
        GROUP BY stream, state ORDER BY stream, state`,
  );
  for (const w of windows)
    reasons.push(`${w.n} ${w.state} window(s) of ${w.stream} still to read again`);
  const runs = await queryRows<{ stream: string; outcome: string | null; error: string | null }>(
    db,
    sql`SELECT DISTINCT ON (stream) stream, outcome, error FROM sync_runs
        WHERE kind IN ('sync', 'backfill', 'schedule')
          AND (finished_at IS NOT NULL OR started_at > ${at}::timestamptz - interval '1 hour')
        ORDER BY stream, started_at DESC`,
  );
  for (const r of runs) {
    if (r.outcome === null) reasons.push(`a sync of ${r.stream} is still running`);
    else if (r.outcome !== "ok")
      reasons.push(
        `the last sync of ${r.stream} ended ${r.outcome}${r.error ? `: ${r.error.slice(0, 200)}` : ""}`,
      );
  }
  const [due] = await queryRows<{ n: string }>(
    db,
    sql`SELECT count(*) AS n FROM service_ids WHERE fetched_at IS NULL OR fetched_at < revealed_at`,
  );
  if (Number(due?.n ?? 0) > 0)
    reasons.push(`${due?.n} serviceId(s) whose account transactions are not fetched yet`);
  return reasons;
}
