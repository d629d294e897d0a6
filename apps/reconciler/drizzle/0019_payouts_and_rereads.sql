CREATE TABLE "payout_versions" (
	"payout_id" text NOT NULL,
	"version" integer NOT NULL,
	"raw" jsonb NOT NULL,
	"raw_hash" text NOT NULL,
	"payout_status" text NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"source" text NOT NULL,
	CONSTRAINT "payout_versions_payout_id_version_pk" PRIMARY KEY("payout_id","version")
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"payout_id" text PRIMARY KEY NOT NULL,
	"request_id" text NOT NULL,
	"payout_status" text NOT NULL,
	"payout_method" text,
	"beneficiary_id" text,
	"source_amount" numeric,
	"source_currency" text,
	"target_amount" numeric,
	"target_currency" text,
	"fee" numeric,
	"fee_currency" text,
	"create_time" timestamp with time zone,
	"finish_time" timestamp with time zone,
	"error_code" text,
	"error_msg" text,
	"raw" jsonb NOT NULL,
	"raw_hash" text NOT NULL,
	"version" integer NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"source" text NOT NULL,
	CONSTRAINT "payouts_status_check" CHECK ("payouts"."payout_status" in ('P', 'S', 'F')),
	CONSTRAINT "payouts_source_check" CHECK ("payouts"."source" in ('sync', 'webhook'))
);
--> statement-breakpoint
ALTER TABLE "service_ids" ADD COLUMN "postings_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "service_ids" ADD COLUMN "reread_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "payouts_create_time_idx" ON "payouts" USING btree ("create_time");--> statement-breakpoint
CREATE INDEX "payouts_request_idx" ON "payouts" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "payouts_pending_idx" ON "payouts" USING btree ("create_time") WHERE "payouts"."payout_status" = 'P';--> statement-breakpoint
CREATE INDEX "service_ids_reread_idx" ON "service_ids" USING btree ("reread_at") WHERE "service_ids"."reread_at" is not null;--> statement-breakpoint
-- serviceIds fetched before re-reads existed: those revealed within the default schedule's last
-- step (30 days) are read again soon (bounded per run), which gives each its next re-read;
-- older ones count as settled.
UPDATE service_ids SET reread_at = now()
WHERE fetched_at IS NOT NULL AND parked_reason IS NULL AND revealed_at > now() - interval '30 days';--> statement-breakpoint
-- finance_service_ids: every serviceId, when its postings were last read and when they are read
-- again. state: due (never fetched, or revealed again since), parked (the service refused it),
-- rereading (inside its re-read period: read again at next_read_at), settled (past the last
-- step of the schedule: read again only when something reveals it).
CREATE VIEW finance_service_ids AS
SELECT s.service_id, s.source, s.first_seen_at, s.revealed_at,
  s.postings_changed_at, s.fetched_at AS last_read_at, s.reread_at AS next_read_at,
  CASE WHEN s.fetched_at IS NULL OR s.fetched_at < s.revealed_at THEN 'due'
    WHEN s.parked_reason IS NOT NULL THEN 'parked'
    WHEN s.reread_at IS NOT NULL THEN 'rereading'
    ELSE 'settled' END AS state
FROM service_ids s;--> statement-breakpoint
-- finance_sync_health: plus, for account_transactions, how many serviceIds are inside their
-- re-read period, how many of those are past their re-read time, and the oldest such time.
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
    WHERE parked_reason IS NOT NULL) END AS service_ids_parked,
  CASE WHEN s.stream = 'account_transactions' THEN (SELECT count(*) FROM service_ids
    WHERE reread_at IS NOT NULL) END AS service_ids_rereading,
  CASE WHEN s.stream = 'account_transactions' THEN (SELECT count(*) FROM service_ids
    WHERE reread_at <= now()) END AS service_ids_reread_due,
  CASE WHEN s.stream = 'account_transactions' THEN (SELECT min(reread_at) FROM service_ids
    WHERE reread_at <= now()) END AS oldest_reread_due
FROM streams s
LEFT JOIN sync_watermarks w ON w.stream = s.stream
LEFT JOIN last_run lr ON lr.stream = s.stream;
