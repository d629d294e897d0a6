CREATE TABLE "due_settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"days" integer[] NOT NULL,
	"class_days" jsonb NOT NULL,
	"large_amount" numeric NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "due_settings_one_row" CHECK ("due_settings"."id" = 1),
	CONSTRAINT "due_settings_days" CHECK (cardinality("due_settings"."days") = 4)
);
--> statement-breakpoint
CREATE INDEX "console_sign_ins_at_idx" ON "console_sign_ins" USING btree ("at");--> statement-breakpoint
-- Due dates in SQL (docs/assumptions.md, "Due dates in the views"): the settings every process
-- reads from its environment (RECONCILER_DUE_DAYS, RECONCILER_DUE_LARGE_AMOUNT) are stored here by
-- whichever reconciler command last opened the database for writing with other ones; until then,
-- the documented defaults.
INSERT INTO due_settings (id, days, class_days, large_amount)
VALUES (1, '{2,5,10,30}', '{}', 10000);
--> statement-breakpoint
-- finance_due_at: when an open break is due, the one definition the views and the queue share
-- (workflow/due-dates.ts): its record's time (`since`) plus its class's days (class_days), else
-- its priority's (days[priority]), halved and rounded up from large_amount. Only an open break
-- is due (a pending one is inside its grace period; accepted and resolved ones are not work).
CREATE FUNCTION finance_due_at(status text, class text, priority integer, amount numeric,
  since timestamptz, days integer[], class_days jsonb, large_amount numeric)
RETURNS timestamptz LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN status = 'open' THEN since + make_interval(days => (
    CASE WHEN amount >= large_amount
      THEN ceil(coalesce((class_days ->> class)::int, days[priority], days[4]) / 2.0)::int
      ELSE coalesce((class_days ->> class)::int, days[priority], days[4]) END)) END
$$;
--> statement-breakpoint
-- finance_due_settings: the settings the views use now (the defaults if the row is gone).
CREATE VIEW finance_due_settings AS
SELECT coalesce(s.days, '{2,5,10,30}') AS days, coalesce(s.class_days, '{}') AS class_days,
  coalesce(s.large_amount, 10000) AS large_amount, s.updated_at
FROM (SELECT 1) one LEFT JOIN due_settings s ON s.id = 1;
--> statement-breakpoint
-- finance_open_breaks: due_at and overdue (due before the latest run's as_of, when ages are
-- measured), as `breaks list` shows them; nothing else changes.
CREATE OR REPLACE VIEW finance_open_breaks AS
SELECT b.priority, b.class, b.status, b.break_id, b.record_kind, b.provider_ref, b.entry_id,
  b.currency, b.amount, b.provider_amount, b.ledger_amount, b.detail, b.occurred_at,
  floor(extract(epoch FROM (coalesce(r.as_of, now()) - b.occurred_at)) / 86400)::int AS age_days,
  b.first_seen_at, b.opened_at, b.previous_class,
  w.assignee, w.last_action, w.last_actor, w.last_action_at,
  floor(extract(epoch FROM (coalesce(r.as_of, now()) - coalesce(b.opened_at, b.first_seen_at))) / 86400)::int AS days_open,
  b.entity,
  d.due_at,
  coalesce(d.due_at < coalesce(r.as_of, now()), false) AS overdue
FROM breaks b
LEFT JOIN break_workflow w ON w.break_id = b.break_id
LEFT JOIN finance_latest_run r ON true
CROSS JOIN finance_due_settings s
CROSS JOIN LATERAL (SELECT finance_due_at(b.status, b.class, b.priority, b.amount,
  coalesce(b.occurred_at, b.opened_at, b.first_seen_at), s.days, s.class_days, s.large_amount)
  AS due_at) d
WHERE b.status IN ('open', 'pending') AND w.accepted_at IS NULL
ORDER BY CASE b.status WHEN 'open' THEN 0 ELSE 1 END, b.priority, b.amount DESC, b.break_id;
--> statement-breakpoint
SELECT finance_watch_tables();
