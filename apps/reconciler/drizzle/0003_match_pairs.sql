CREATE TABLE "match_group_members" (
	"match_id" text NOT NULL,
	"side" text NOT NULL,
	"record_kind" text NOT NULL,
	"record_ref" text NOT NULL,
	"amount" numeric NOT NULL,
	"currency" text NOT NULL,
	CONSTRAINT "match_group_members_side_record_kind_record_ref_pk" PRIMARY KEY("side","record_kind","record_ref")
);
--> statement-breakpoint
CREATE TABLE "match_groups" (
	"match_id" text PRIMARY KEY NOT NULL,
	"pass" text NOT NULL,
	"status" text NOT NULL,
	"currency" text NOT NULL,
	"provider_amount" numeric NOT NULL,
	"ledger_amount" numeric NOT NULL,
	"first_run_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "match_groups_status_check" CHECK ("match_groups"."status" in ('confirmed', 'proposed'))
);
--> statement-breakpoint
CREATE TABLE "match_pairs" (
	"record_kind" text NOT NULL,
	"record_ref" text NOT NULL,
	"entry_id" text NOT NULL,
	"amount" numeric NOT NULL,
	"currency" text NOT NULL,
	"first_run_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "match_pairs_record_kind_record_ref_pk" PRIMARY KEY("record_kind","record_ref")
);
--> statement-breakpoint
DROP TABLE "match_members" CASCADE;--> statement-breakpoint
DROP TABLE "matches" CASCADE;--> statement-breakpoint
CREATE INDEX "match_group_members_match_idx" ON "match_group_members" USING btree ("match_id");