CREATE TABLE "ledger_entries" (
	"entry_id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"provider_ref" text NOT NULL,
	"amount" numeric NOT NULL,
	"currency" text NOT NULL,
	"booked_at" timestamp with time zone NOT NULL,
	"fee_type" text,
	"card_id" text,
	"description" text,
	"source_file" text,
	"source_line" integer,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_kind_check" CHECK ("ledger_entries"."kind" in ('card_transaction', 'card_operation', 'fee', 'account')),
	CONSTRAINT "ledger_entries_fee_type_check" CHECK (("ledger_entries"."kind" = 'fee') = ("ledger_entries"."fee_type" is not null))
);
--> statement-breakpoint
CREATE TABLE "ledger_staging" (
	"import_id" text NOT NULL,
	"line_no" integer NOT NULL,
	"entry_id" text NOT NULL,
	"kind" text NOT NULL,
	"provider_ref" text NOT NULL,
	"amount" numeric NOT NULL,
	"currency" text NOT NULL,
	"booked_at" timestamp with time zone NOT NULL,
	"fee_type" text,
	"card_id" text,
	"description" text
);
--> statement-breakpoint
CREATE TABLE "break_records" (
	"break_id" text NOT NULL,
	"side" text NOT NULL,
	"record_kind" text NOT NULL,
	"record_ref" text NOT NULL,
	"amount" numeric,
	"currency" text,
	CONSTRAINT "break_records_side_record_kind_record_ref_pk" PRIMARY KEY("side","record_kind","record_ref")
);
--> statement-breakpoint
CREATE TABLE "breaks" (
	"break_id" text PRIMARY KEY NOT NULL,
	"break_key" text NOT NULL,
	"class" text NOT NULL,
	"previous_class" text,
	"priority" smallint NOT NULL,
	"status" text NOT NULL,
	"record_kind" text,
	"provider_ref" text,
	"entry_id" text,
	"currency" text,
	"amount" numeric NOT NULL,
	"provider_amount" numeric,
	"ledger_amount" numeric,
	"detail" text NOT NULL,
	"occurred_at" timestamp with time zone,
	"first_seen_at" timestamp with time zone NOT NULL,
	"opened_at" timestamp with time zone,
	"last_seen_at" timestamp with time zone NOT NULL,
	"first_run_id" uuid NOT NULL,
	"last_run_id" uuid NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_run_id" uuid,
	CONSTRAINT "breaks_status_check" CHECK ("breaks"."status" in ('pending', 'open', 'resolved'))
);
--> statement-breakpoint
CREATE TABLE "match_members" (
	"match_id" text NOT NULL,
	"side" text NOT NULL,
	"record_kind" text NOT NULL,
	"record_ref" text NOT NULL,
	"amount" numeric NOT NULL,
	"currency" text NOT NULL,
	CONSTRAINT "match_members_side_record_kind_record_ref_pk" PRIMARY KEY("side","record_kind","record_ref")
);
--> statement-breakpoint
CREATE TABLE "match_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"as_of" timestamp with time zone NOT NULL,
	"verdict" text,
	"reasons" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"stats" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"duration_ms" integer,
	CONSTRAINT "match_runs_verdict_check" CHECK ("match_runs"."verdict" in ('reconciled', 'reconciled_with_pending', 'breaks', 'incomplete'))
);
--> statement-breakpoint
CREATE TABLE "matches" (
	"match_id" text PRIMARY KEY NOT NULL,
	"pass" text NOT NULL,
	"status" text NOT NULL,
	"currency" text NOT NULL,
	"provider_amount" numeric NOT NULL,
	"ledger_amount" numeric NOT NULL,
	"first_run_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "matches_status_check" CHECK ("matches"."status" in ('confirmed', 'proposed'))
);
--> statement-breakpoint
CREATE INDEX "ledger_entries_ref_idx" ON "ledger_entries" USING btree ("provider_ref");--> statement-breakpoint
CREATE INDEX "ledger_staging_import_idx" ON "ledger_staging" USING btree ("import_id");--> statement-breakpoint
CREATE INDEX "break_records_break_idx" ON "break_records" USING btree ("break_id");--> statement-breakpoint
CREATE INDEX "breaks_queue_idx" ON "breaks" USING btree ("status","priority");--> statement-breakpoint
CREATE INDEX "match_members_match_idx" ON "match_members" USING btree ("match_id");--> statement-breakpoint
CREATE INDEX "match_runs_started_idx" ON "match_runs" USING btree ("started_at");