CREATE TABLE "break_actions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "break_actions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"break_id" text NOT NULL,
	"actor" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"action" text NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"class" text NOT NULL,
	"amount" numeric NOT NULL,
	"currency" text,
	CONSTRAINT "break_actions_action_check" CHECK ("break_actions"."action" in ('accept', 'reopen', 'comment', 'assign', 'unassign', 'lapse')),
	CONSTRAINT "break_actions_actor_check" CHECK (length(btrim("break_actions"."actor")) > 0)
);
--> statement-breakpoint
CREATE TABLE "break_workflow" (
	"break_id" text PRIMARY KEY NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_by" text,
	"accepted_reason" text,
	"accepted_class" text,
	"accepted_amount" numeric,
	"accepted_currency" text,
	"assignee" text,
	"assigned_at" timestamp with time zone,
	"last_action" text NOT NULL,
	"last_actor" text NOT NULL,
	"last_action_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "break_actions_break_idx" ON "break_actions" USING btree ("break_id","id");--> statement-breakpoint
CREATE INDEX "break_actions_at_idx" ON "break_actions" USING btree ("at");--> statement-breakpoint
-- The audit trail is append-only in the database itself: an UPDATE, DELETE or TRUNCATE of
-- break_actions raises, whoever sends it (code, psql, a migration).
CREATE FUNCTION break_actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'break_actions is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER break_actions_no_change BEFORE UPDATE OR DELETE ON break_actions
  FOR EACH ROW EXECUTE FUNCTION break_actions_append_only();
--> statement-breakpoint
CREATE TRIGGER break_actions_no_truncate BEFORE TRUNCATE ON break_actions
  FOR EACH STATEMENT EXECUTE FUNCTION break_actions_append_only();
--> statement-breakpoint
-- finance_break_workflow: every break with finance's state of it. status is the match run's
-- (pending, open, resolved) except that an accepted break that is not resolved is 'accepted';
-- days_open counts from when it opened (first seen while pending) to the latest run's as_of.
CREATE VIEW finance_break_workflow AS
SELECT b.break_id, b.class, b.priority,
  CASE WHEN b.status <> 'resolved' AND w.accepted_at IS NOT NULL THEN 'accepted' ELSE b.status END AS status,
  b.record_kind, b.provider_ref, b.entry_id, b.currency, b.amount, b.provider_amount,
  b.ledger_amount, b.detail, b.occurred_at, b.first_seen_at, b.opened_at, b.resolved_at,
  floor(extract(epoch FROM (coalesce(r.as_of, now()) - coalesce(b.opened_at, b.first_seen_at))) / 86400)::int AS days_open,
  w.assignee, w.assigned_at, w.accepted_by, w.accepted_at, w.accepted_reason,
  w.last_action, w.last_actor, w.last_action_at
FROM breaks b
LEFT JOIN break_workflow w ON w.break_id = b.break_id
LEFT JOIN finance_latest_run r ON true;
--> statement-breakpoint
-- finance_open_breaks: the work queue without the accepted breaks, and with who has each one,
-- the last action on it and how long it has been open (new columns at the end).
CREATE OR REPLACE VIEW finance_open_breaks AS
SELECT b.priority, b.class, b.status, b.break_id, b.record_kind, b.provider_ref, b.entry_id,
  b.currency, b.amount, b.provider_amount, b.ledger_amount, b.detail, b.occurred_at,
  floor(extract(epoch FROM (coalesce(r.as_of, now()) - b.occurred_at)) / 86400)::int AS age_days,
  b.first_seen_at, b.opened_at, b.previous_class,
  w.assignee, w.last_action, w.last_actor, w.last_action_at,
  floor(extract(epoch FROM (coalesce(r.as_of, now()) - coalesce(b.opened_at, b.first_seen_at))) / 86400)::int AS days_open
FROM breaks b
LEFT JOIN break_workflow w ON w.break_id = b.break_id
LEFT JOIN finance_latest_run r ON true
WHERE b.status IN ('open', 'pending') AND w.accepted_at IS NULL
ORDER BY CASE b.status WHEN 'open' THEN 0 ELSE 1 END, b.priority, b.amount DESC, b.break_id;
--> statement-breakpoint
-- finance_statement_lines: a leg of an accepted break is explained as 'accepted'.
CREATE OR REPLACE VIEW finance_statement_lines AS
WITH legs AS (
  SELECT p.occurred_at::date AS day, p.currency, p.amount AS provider_amount, 0::numeric AS ledger_amount,
    'provider'::text AS side, p.kind AS record_kind, p.item_ref AS record_ref
  FROM provider_items p
  UNION ALL
  SELECT e.booked_at::date, e.currency, 0::numeric, e.amount, 'ledger', 'ledger_entry', e.entry_id
  FROM ledger_entries e
)
SELECT l.day, l.currency, l.side, l.record_kind, l.record_ref, l.provider_amount, l.ledger_amount,
  CASE WHEN b.break_id IS NOT NULL AND w.break_id IS NOT NULL THEN 'accepted'
    WHEN b.status = 'open' THEN b.class
    WHEN b.status = 'pending' THEN 'pending'
    WHEN m.match_id IS NOT NULL THEN 'matched'
    ELSE 'unexplained' END AS explanation,
  b.break_id, m.match_id
FROM legs l
LEFT JOIN break_records br ON br.side = l.side AND br.record_kind = l.record_kind AND br.record_ref = l.record_ref
LEFT JOIN breaks b ON b.break_id = br.break_id AND b.status <> 'resolved'
LEFT JOIN break_workflow w ON w.break_id = b.break_id AND w.accepted_at IS NOT NULL
LEFT JOIN match_members m ON m.side = l.side AND m.record_kind = l.record_kind AND m.record_ref = l.record_ref;
--> statement-breakpoint
-- finance_daily_statement: accepted breaks count in explained_by_breaks and, apart from
-- by_class, in the new last column accepted (explained_by_breaks = sum(by_class) + accepted).
CREATE OR REPLACE VIEW finance_daily_statement AS
WITH by_line AS (
  SELECT day, currency, explanation, sum(provider_amount) AS provider_amount,
    sum(ledger_amount) AS ledger_amount, sum(provider_amount - ledger_amount) AS difference
  FROM finance_statement_lines GROUP BY day, currency, explanation
)
SELECT day, currency,
  sum(provider_amount) AS provider_total,
  sum(ledger_amount) AS ledger_total,
  sum(difference) AS difference,
  coalesce(sum(difference) FILTER (WHERE explanation = 'matched'), 0) AS timing,
  coalesce(sum(difference) FILTER (WHERE explanation NOT IN ('matched', 'pending', 'unexplained')), 0) AS explained_by_breaks,
  coalesce(sum(difference) FILTER (WHERE explanation = 'pending'), 0) AS pending,
  coalesce(sum(difference) FILTER (WHERE explanation = 'unexplained'), 0) AS unexplained,
  coalesce(jsonb_object_agg(explanation, difference) FILTER (WHERE explanation NOT IN ('matched', 'pending', 'unexplained', 'accepted')), '{}'::jsonb) AS by_class,
  coalesce(sum(difference) FILTER (WHERE explanation = 'accepted'), 0) AS accepted
FROM by_line GROUP BY day, currency;
