CREATE TABLE "manual_match_records" (
	"match_id" bigint NOT NULL,
	"side" text NOT NULL,
	"record_kind" text NOT NULL,
	"record_ref" text NOT NULL,
	"amount" numeric NOT NULL,
	"currency" text NOT NULL,
	"break_id" text NOT NULL,
	CONSTRAINT "manual_match_records_match_id_side_record_kind_record_ref_pk" PRIMARY KEY("match_id","side","record_kind","record_ref"),
	CONSTRAINT "manual_match_records_side_check" CHECK ("manual_match_records"."side" in ('provider', 'ledger'))
);
--> statement-breakpoint
CREATE TABLE "manual_matches" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "manual_matches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"status" text NOT NULL,
	"currency" text NOT NULL,
	"amount" numeric NOT NULL,
	"actor" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"ended_by" text,
	"ended_reason" text,
	CONSTRAINT "manual_matches_status_check" CHECK ("manual_matches"."status" in ('active', 'unmatched', 'lapsed')),
	CONSTRAINT "manual_matches_currency_check" CHECK ("manual_matches"."currency" ~ '^[A-Z]{3}$')
);
--> statement-breakpoint
ALTER TABLE "break_actions" DROP CONSTRAINT "break_actions_action_check";--> statement-breakpoint
CREATE INDEX "manual_match_records_ref_idx" ON "manual_match_records" USING btree ("side","record_ref");--> statement-breakpoint
CREATE INDEX "manual_matches_status_idx" ON "manual_matches" USING btree ("status");--> statement-breakpoint
ALTER TABLE "break_actions" ADD CONSTRAINT "break_actions_action_check" CHECK ("break_actions"."action" in ('accept', 'reopen', 'comment', 'assign', 'unassign', 'lapse', 'write_off', 'confirm', 'reject', 'match', 'unmatch', 'request_approval', 'approve', 'decline'));