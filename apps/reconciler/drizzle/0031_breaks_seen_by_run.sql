-- When each break was last seen, and by which run. A run that writes its results stamps the
-- breaks it wrote (breaks.last_seen_at, last_run_id); a run that reuses the last one's results
-- (nothing changed) and an incremental run's breaks outside its scope are not rewritten, so
-- that a scheduled tick costs the same whatever the number of open breaks. Their results are
-- still that run's: an open or pending break was seen by the latest complete run that kept
-- its results (match_runs.fingerprint set), when that run is later than the one that wrote
-- the row. A resolved break was last seen by the run before the one that resolved it (stored).
CREATE VIEW breaks_seen AS
WITH latest AS (
  SELECT id, as_of, started_at FROM match_runs
  WHERE finished_at IS NOT NULL AND fingerprint IS NOT NULL
  ORDER BY started_at DESC LIMIT 1
)
SELECT b.break_id, b.status,
  CASE WHEN b.status <> 'resolved' AND l.started_at > coalesce(r.started_at, '-infinity')
    THEN l.as_of ELSE b.last_seen_at END AS last_seen_at,
  CASE WHEN b.status <> 'resolved' AND l.started_at > coalesce(r.started_at, '-infinity')
    THEN l.id ELSE b.last_run_id END AS last_run_id
FROM breaks b
LEFT JOIN match_runs r ON r.id = b.last_run_id
LEFT JOIN latest l ON true;
