ALTER TABLE "service_ids" ADD COLUMN "parked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "service_ids" ADD COLUMN "parked_reason" text;--> statement-breakpoint
-- finance_parked_service_ids: serviceIds the service refused on their own (the rest of their
-- batch was read), with its answer and the ledger entries naming them: correct those entries and
-- the id is tried again on the next run.
CREATE VIEW finance_parked_service_ids AS
SELECT s.service_id, s.source, s.parked_at, s.parked_reason,
  (SELECT string_agg(l.entry_id, ', ' ORDER BY l.entry_id) FROM ledger_entries l
    WHERE l.kind = 'account' AND l.provider_ref = s.service_id) AS ledger_entry_ids
FROM service_ids s
WHERE s.parked_reason IS NOT NULL;--> statement-breakpoint
-- finance_sync_health: plus how many serviceIds are parked (not unread: the service refused them).
CREATE OR REPLACE VIEW finance_sync_health AS
WITH streams AS (
  SELECT stream FROM sync_watermarks UNION SELECT stream FROM sync_runs WHERE kind <> 'webhook'
  UNION SELECT stream FROM sync_windows
), last_run AS (
  SELECT DISTINCT ON (stream) stream, started_at, finished_at, outcome, error FROM sync_runs
  WHERE kind <> 'webhook' ORDER BY stream, started_at DESC
)
SELECT s.stream, w.watermark,
  floor(extract(epoch FROM (now() - w.watermark)) / 60)::bigint AS lag_minutes,
  lr.started_at AS last_run_started_at, lr.finished_at AS last_run_finished_at,
  lr.outcome AS last_run_outcome, lr.error AS last_run_error,
  (SELECT count(*) FROM sync_windows sw WHERE sw.stream = s.stream
    AND sw.state IN ('failed', 'drifted')) AS windows_to_reread,
  CASE WHEN s.stream = 'account_transactions' THEN (SELECT count(*) FROM service_ids
    WHERE fetched_at IS NULL OR fetched_at < revealed_at) END AS service_ids_due,
  (SELECT min(window_start) FROM sync_windows sw WHERE sw.stream = s.stream
    AND sw.state IN ('failed', 'drifted')) AS oldest_unread_window,
  (SELECT count(*) FROM sync_windows sw WHERE sw.stream = s.stream
    AND sw.state = 'given_up') AS windows_given_up,
  CASE WHEN s.stream = 'account_transactions' THEN (SELECT count(*) FROM service_ids
    WHERE parked_reason IS NOT NULL) END AS service_ids_parked
FROM streams s
LEFT JOIN sync_watermarks w ON w.stream = s.stream
LEFT JOIN last_run lr ON lr.stream = s.stream;
