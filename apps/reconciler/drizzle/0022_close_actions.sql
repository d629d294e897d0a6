CREATE TABLE "journal_entries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "journal_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"entry_date" date NOT NULL,
	"account" text NOT NULL,
	"amount" numeric NOT NULL,
	"currency" text NOT NULL,
	"break_id" text NOT NULL,
	"reference" text NOT NULL,
	"actor" text NOT NULL,
	"reason" text NOT NULL,
	"action_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "journal_entries_currency_check" CHECK ("journal_entries"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "journal_entries_account_check" CHECK (length(btrim("journal_entries"."account")) > 0)
);
--> statement-breakpoint
CREATE TABLE "proposal_decisions" (
	"entry_id" text NOT NULL,
	"item_ref" text NOT NULL,
	"decision" text NOT NULL,
	"entry_amount" numeric NOT NULL,
	"entry_currency" text NOT NULL,
	"item_amount" numeric NOT NULL,
	"item_currency" text NOT NULL,
	"break_id" text NOT NULL,
	"actor" text NOT NULL,
	"reason" text NOT NULL,
	"decided_at" timestamp with time zone DEFAULT now() NOT NULL,
	"action_id" bigint NOT NULL,
	CONSTRAINT "proposal_decisions_entry_id_item_ref_pk" PRIMARY KEY("entry_id","item_ref"),
	CONSTRAINT "proposal_decisions_decision_check" CHECK ("proposal_decisions"."decision" in ('confirmed', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "break_actions" DROP CONSTRAINT "break_actions_action_check";--> statement-breakpoint
CREATE INDEX "journal_entries_break_idx" ON "journal_entries" USING btree ("break_id");--> statement-breakpoint
CREATE INDEX "journal_entries_date_idx" ON "journal_entries" USING btree ("entry_date");--> statement-breakpoint
ALTER TABLE "break_actions" ADD CONSTRAINT "break_actions_action_check" CHECK ("break_actions"."action" in ('accept', 'reopen', 'comment', 'assign', 'unassign', 'lapse', 'write_off', 'confirm', 'reject'));--> statement-breakpoint
-- A booked journal entry is never changed or removed, whoever asks: a correction is a new entry.
CREATE FUNCTION journal_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'journal_entries is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER journal_entries_no_change BEFORE UPDATE OR DELETE ON journal_entries
  FOR EACH ROW EXECUTE FUNCTION journal_entries_append_only();
--> statement-breakpoint
CREATE TRIGGER journal_entries_no_truncate BEFORE TRUNCATE ON journal_entries
  FOR EACH STATEMENT EXECUTE FUNCTION journal_entries_append_only();
