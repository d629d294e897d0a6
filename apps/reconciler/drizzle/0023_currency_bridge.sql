-- finance_break_effects: what each break that is not resolved does to the difference, in each
-- currency it touches: the sum of its provider records minus the sum of its ledger records
-- (break_records), signed as the statement's difference (provider - ledger). breaks.amount is
-- unsigned and in the provider's currency only, so a currency_mismatch (provider USD, ledger
-- EUR) has one row here per currency: its USD effect and its EUR effect. status is finance's
-- (open, pending, accepted: finance_break_workflow); accepted says the same as a boolean.
CREATE VIEW finance_break_effects AS
SELECT w.break_id, w.class, w.status, w.status = 'accepted' AS accepted, r.currency,
  sum(CASE WHEN r.side = 'provider' THEN coalesce(r.amount, 0) ELSE -coalesce(r.amount, 0) END) AS effect,
  w.occurred_at
FROM finance_break_workflow w
JOIN break_records r ON r.break_id = w.break_id
WHERE w.status <> 'resolved' AND r.currency IS NOT NULL
GROUP BY w.break_id, w.class, w.status, r.currency, w.occurred_at;
--> statement-breakpoint
-- finance_currency_bridge: per currency over every day, provider total, ledger total and the
-- difference, and what explains it, from the same lines as finance_daily_statement (so it is
-- the sum of that view's rows): difference = timing + open_breaks + pending + accepted +
-- unexplained, to the cent. open_breaks is the signed sum of the open breaks' effects in the
-- currency (by_class splits it per class: the EUR side of a currency_mismatch is under EUR).
CREATE VIEW finance_currency_bridge AS
WITH by_line AS (
  SELECT currency, explanation, sum(provider_amount) AS provider_amount,
    sum(ledger_amount) AS ledger_amount, sum(provider_amount - ledger_amount) AS difference
  FROM finance_statement_lines GROUP BY currency, explanation
)
SELECT currency,
  sum(provider_amount) AS provider_total,
  sum(ledger_amount) AS ledger_total,
  sum(difference) AS difference,
  coalesce(sum(difference) FILTER (WHERE explanation = 'matched'), 0) AS timing,
  coalesce(sum(difference) FILTER (WHERE explanation NOT IN ('matched', 'pending', 'unexplained', 'accepted')), 0) AS open_breaks,
  coalesce(sum(difference) FILTER (WHERE explanation = 'pending'), 0) AS pending,
  coalesce(sum(difference) FILTER (WHERE explanation = 'accepted'), 0) AS accepted,
  coalesce(sum(difference) FILTER (WHERE explanation = 'unexplained'), 0) AS unexplained,
  coalesce(jsonb_object_agg(explanation, difference) FILTER (WHERE explanation NOT IN ('matched', 'pending', 'unexplained', 'accepted')), '{}'::jsonb) AS by_class
FROM by_line GROUP BY currency;
--> statement-breakpoint
-- finance_latest_run: the run's options (params, new last column), so views can follow the
-- run's settings, as finance_stale_authorizations follows its stale limit.
CREATE OR REPLACE VIEW finance_latest_run AS
SELECT id, started_at, finished_at, as_of, verdict, reasons, stats, duration_ms, params
FROM match_runs WHERE finished_at IS NOT NULL AND verdict IS NOT NULL
ORDER BY started_at DESC LIMIT 1;
--> statement-breakpoint
-- finance_stale_authorizations: the age buckets start at the latest run's stale limit
-- (params.staleAuthorizationMs, 7 days by default), so the stale buckets hold exactly the
-- stale_authorization breaks that run raised; an authorization holding money for less is in
-- the bucket 'not stale yet' and stale is false (new last column). The buckets were 0-1d,
-- 2-7d, 8-30d, >30d: an authorization 7.5 days old was a break but in '2-7d'.
CREATE OR REPLACE VIEW finance_stale_authorizations AS
WITH run AS (
  SELECT coalesce(max(as_of), now()) AS as_of,
    coalesce(max((params ->> 'staleAuthorizationMs')::bigint), 604800000) AS stale_ms
  FROM finance_latest_run
), open_auths AS (
  SELECT a.txn_order_no, a.card_id, a.card_currency, a.transaction_time,
    greatest(a.card_amount - coalesce(u.used, 0), 0) AS open_hold,
    extract(epoch FROM (r.as_of - a.transaction_time)) / 86400 AS age_days,
    a.transaction_time < r.as_of - r.stale_ms * interval '1 millisecond' AS stale,
    r.stale_ms / 86400000.0 AS stale_days
  FROM card_transactions a
  LEFT JOIN LATERAL (SELECT sum(c.card_amount) AS used FROM card_transactions c
    WHERE c.origin_txn_order_no = a.txn_order_no AND c.txn_status = 'S'
      AND c.txn_type IN ('CLEARING', 'REVERSAL')) u ON true
  CROSS JOIN run r
  WHERE a.txn_type = 'AUTHORIZATION' AND a.txn_status = 'P'
    AND a.card_amount > coalesce(u.used, 0)
)
SELECT txn_order_no, card_id, card_currency, transaction_time, open_hold, floor(age_days)::int AS age_days,
  CASE WHEN NOT stale THEN 'not stale yet'
    WHEN age_days < 31 AND stale_days < 30 THEN trim_scale(round(stale_days, 2))::text || '-30d'
    ELSE '>30d' END AS age_bucket,
  stale
FROM open_auths;
--> statement-breakpoint
-- finance_break_workflow: record_age_days (new last column), the age of the break's record
-- (latest run's as_of - occurred_at), as finance_open_breaks.age_days; days_open is how long
-- the break has been open. The two are labelled "record age" and "open for" wherever shown.
CREATE OR REPLACE VIEW finance_break_workflow AS
SELECT b.break_id, b.class, b.priority,
  CASE WHEN b.status <> 'resolved' AND w.accepted_at IS NOT NULL THEN 'accepted' ELSE b.status END AS status,
  b.record_kind, b.provider_ref, b.entry_id, b.currency, b.amount, b.provider_amount,
  b.ledger_amount, b.detail, b.occurred_at, b.first_seen_at, b.opened_at, b.resolved_at,
  floor(extract(epoch FROM (coalesce(r.as_of, now()) - coalesce(b.opened_at, b.first_seen_at))) / 86400)::int AS days_open,
  w.assignee, w.assigned_at, w.accepted_by, w.accepted_at, w.accepted_reason,
  w.last_action, w.last_actor, w.last_action_at,
  floor(extract(epoch FROM (coalesce(r.as_of, now()) - b.occurred_at)) / 86400)::int AS record_age_days
FROM breaks b
LEFT JOIN break_workflow w ON w.break_id = b.break_id
LEFT JOIN finance_latest_run r ON true;
