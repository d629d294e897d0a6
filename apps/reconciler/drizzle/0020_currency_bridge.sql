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
