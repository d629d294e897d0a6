CREATE TABLE "approval_requests" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "approval_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"break_id" text NOT NULL,
	"action" text NOT NULL,
	"requested_by" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reason" text NOT NULL,
	"account" text,
	"entry_date" date,
	"amount" numeric NOT NULL,
	"currency" text,
	"provider_amount" numeric,
	"ledger_amount" numeric,
	"request_action_id" bigint NOT NULL,
	"decision" text,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	CONSTRAINT "approval_requests_action_check" CHECK ("approval_requests"."action" in ('accept', 'write_off')),
	CONSTRAINT "approval_requests_decision_check" CHECK ("approval_requests"."decision" is null or "approval_requests"."decision" in ('approved', 'declined'))
);
--> statement-breakpoint
CREATE TABLE "console_sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"user_name" text NOT NULL,
	"form_token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "console_sign_ins" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "console_sign_ins_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"ok" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "console_users" (
	"name" text PRIMARY KEY NOT NULL,
	"role" text NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"disabled_at" timestamp with time zone,
	"last_sign_in_at" timestamp with time zone,
	CONSTRAINT "console_users_role_check" CHECK ("console_users"."role" in ('viewer', 'preparer', 'approver'))
);
--> statement-breakpoint
ALTER TABLE "break_actions" DROP CONSTRAINT "break_actions_action_check";--> statement-breakpoint
ALTER TABLE "console_sessions" ADD CONSTRAINT "console_sessions_user_name_console_users_name_fk" FOREIGN KEY ("user_name") REFERENCES "public"."console_users"("name") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "approval_requests_pending_idx" ON "approval_requests" USING btree ("break_id") WHERE "approval_requests"."decided_at" is null;--> statement-breakpoint
CREATE INDEX "console_sessions_user_idx" ON "console_sessions" USING btree ("user_name");--> statement-breakpoint
CREATE INDEX "console_sign_ins_name_idx" ON "console_sign_ins" USING btree ("name","at");--> statement-breakpoint
CREATE INDEX "console_sign_ins_address_idx" ON "console_sign_ins" USING btree ("address","at");--> statement-breakpoint
CREATE UNIQUE INDEX "console_users_name_ci_idx" ON "console_users" USING btree (lower("name"));--> statement-breakpoint
ALTER TABLE "break_actions" ADD CONSTRAINT "break_actions_action_check" CHECK ("break_actions"."action" in ('accept', 'reopen', 'comment', 'assign', 'unassign', 'lapse', 'write_off', 'confirm', 'reject', 'request_approval', 'approve', 'decline'));