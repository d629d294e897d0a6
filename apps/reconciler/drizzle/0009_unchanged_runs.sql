ALTER TABLE "match_runs" ADD COLUMN "fingerprint" text;--> statement-breakpoint
ALTER TABLE "match_runs" ADD COLUMN "valid_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "match_runs" ADD COLUMN "reused_run_id" uuid;