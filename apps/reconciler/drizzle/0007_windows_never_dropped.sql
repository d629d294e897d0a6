ALTER TABLE "sync_windows" DROP CONSTRAINT "sync_windows_state_check";--> statement-breakpoint
DROP INDEX "sync_windows_open_idx";--> statement-breakpoint
ALTER TABLE "sync_windows" ADD COLUMN "id" bigint NOT NULL GENERATED ALWAYS AS IDENTITY (sequence name "sync_windows_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
ALTER TABLE "sync_windows" ADD COLUMN "given_up_by" text;--> statement-breakpoint
ALTER TABLE "sync_windows" ADD COLUMN "given_up_reason" text;--> statement-breakpoint
ALTER TABLE "sync_windows" ADD COLUMN "given_up_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "sync_windows_id_idx" ON "sync_windows" USING btree ("id");--> statement-breakpoint
CREATE INDEX "sync_windows_unread_idx" ON "sync_windows" USING btree ("stream","window_start") WHERE "sync_windows"."state" in ('failed', 'drifted');--> statement-breakpoint
ALTER TABLE "sync_windows" ADD CONSTRAINT "sync_windows_given_up_check" CHECK ("sync_windows"."state" <> 'given_up' or ("sync_windows"."given_up_by" is not null and "sync_windows"."given_up_reason" is not null));--> statement-breakpoint
ALTER TABLE "sync_windows" ADD CONSTRAINT "sync_windows_state_check" CHECK ("sync_windows"."state" in ('failed', 'drifted', 'done', 'given_up'));--> statement-breakpoint
-- finance_sync_health: a given-up window is no longer "to read again" (a person decided so, on
-- record); the oldest unread window says since when data is missing.
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
    AND sw.state = 'given_up') AS windows_given_up
FROM streams s
LEFT JOIN sync_watermarks w ON w.stream = s.stream
LEFT JOIN last_run lr ON lr.stream = s.stream;
