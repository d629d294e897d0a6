-- The cash leg of a card operation in the figures. provider_items leaves out
-- the account postings under an operation's serviceId (the operation and its fees stand for
-- them), so a posting the operation does not explain (a late ADJUSTMENT, a fee charged twice, a
-- failed operation's debit never given back) moved the merchant account but no figure: the
-- cash_leg_mismatch break had no records, hence no effect, and the bridge tied without it.
--
-- finance_cash_leg_differences: per operation and currency, what its postings moved beyond the
-- operation and its fees (postings - operation with fees), for the operations the cash leg pass
-- checks (settled or failed, serviceId fetched: before the fetch there is nothing to compare)
-- and only where it is not zero. Its day is its latest posting's (the day the account moved;
-- the operation's when no posting exists). A settled operation's own items are those of
-- provider_items under its operateRecordId (origin_ref), as the pass takes them; a failed
-- operation has none there, so its postings are the whole difference.
CREATE VIEW finance_cash_leg_differences AS
WITH ops AS (
  SELECT o.operate_record_id, o.client_request_id, o.operate_time FROM operate_records o
  WHERE o.status IN ('S', 'F')
    AND EXISTS (SELECT 1 FROM service_ids s
      WHERE s.service_id = o.operate_record_id AND s.fetched_at IS NOT NULL)
), legs AS (
  SELECT p.origin_ref AS operate_record_id, p.currency, p.amount AS operation_amount,
    0::numeric AS account_amount, NULL::timestamptz AS posted_at
  FROM provider_items p WHERE p.parent_kind = 'card_operation'
  UNION ALL
  SELECT a.service_id, a.currency, 0::numeric, a.amount, a.balance_upd_date
  FROM account_transactions a
)
SELECT o.operate_record_id, o.client_request_id, l.currency,
  sum(l.operation_amount) AS operation_amount, sum(l.account_amount) AS account_amount,
  sum(l.account_amount) - sum(l.operation_amount) AS difference,
  coalesce(max(l.posted_at), o.operate_time) AS occurred_at
FROM ops o JOIN legs l ON l.operate_record_id = o.operate_record_id
GROUP BY o.operate_record_id, o.client_request_id, l.currency, o.operate_time
HAVING sum(l.account_amount) <> sum(l.operation_amount);
--> statement-breakpoint
-- finance_statement_lines: each cash leg difference is a provider line (record_kind cash_leg,
-- ref <operateRecordId>:<currency>, as an account item's), explained by the cash_leg_mismatch
-- break that holds it as a record (match/passes/cash-leg.ts), so the bridge's provider total is
-- what the merchant account moved and finance_break_effects carries the break's effect. The
-- columns are unchanged.
CREATE OR REPLACE VIEW finance_statement_lines AS
WITH legs AS (
  SELECT (p.occurred_at AT TIME ZONE 'UTC')::date AS day, p.currency, p.amount AS provider_amount,
    0::numeric AS ledger_amount, 'provider'::text AS side, p.kind AS record_kind, p.item_ref AS record_ref,
    p.entity
  FROM provider_items p
  UNION ALL
  -- Operations and their postings are the merchant's own (''), as provider_items has them.
  SELECT (d.occurred_at AT TIME ZONE 'UTC')::date, d.currency, d.difference, 0::numeric, 'provider',
    'cash_leg', d.operate_record_id || ':' || d.currency, ''
  FROM finance_cash_leg_differences d
  UNION ALL
  SELECT (e.booked_at AT TIME ZONE 'UTC')::date, e.currency, 0::numeric, e.amount, 'ledger', 'ledger_entry',
    e.entry_id, e.entity
  FROM ledger_entries e
)
SELECT l.day, l.currency, l.side, l.record_kind, l.record_ref, l.provider_amount, l.ledger_amount,
  CASE WHEN b.break_id IS NOT NULL AND w.break_id IS NOT NULL THEN 'accepted'
    WHEN b.status = 'open' THEN b.class
    WHEN b.status = 'pending' THEN 'pending'
    WHEN m.match_id IS NOT NULL THEN 'matched'
    ELSE 'unexplained' END AS explanation,
  b.break_id, m.match_id, l.entity
FROM legs l
LEFT JOIN break_records br ON br.side = l.side AND br.record_kind = l.record_kind AND br.record_ref = l.record_ref
LEFT JOIN breaks b ON b.break_id = br.break_id AND b.status <> 'resolved'
LEFT JOIN break_workflow w ON w.break_id = b.break_id AND w.accepted_at IS NOT NULL
LEFT JOIN match_members m ON m.side = l.side AND m.record_kind = l.record_kind AND m.record_ref = l.record_ref;
--> statement-breakpoint
-- The figures' day log follows the new line: a break record of kind cash_leg is on its
-- operation's day and its postings' days, and a write to service_ids (a fetch) changes the
-- days of the operation whose serviceId it is.
CREATE OR REPLACE FUNCTION finance_record_days_sql(r text) RETURNS text LANGUAGE sql IMMUTABLE AS $f$
  SELECT format($q$
    SELECT (e.booked_at AT TIME ZONE 'UTC')::date FROM %1$s r
      JOIN ledger_entries e ON e.entry_id = r.record_ref WHERE r.side = 'ledger'
    UNION SELECT (coalesce(c.settle_time, c.transaction_time) AT TIME ZONE 'UTC')::date FROM %1$s r
      JOIN card_transactions c ON c.txn_order_no = r.record_ref COLLATE "default"
      WHERE r.side = 'provider' AND r.record_kind = 'card_transaction'
    UNION SELECT (coalesce(c.settle_time, c.transaction_time) AT TIME ZONE 'UTC')::date FROM %1$s r
      JOIN card_transactions c
        ON c.txn_order_no = regexp_replace(r.record_ref, '#[^#]*$', '') COLLATE "default"
      WHERE r.side = 'provider' AND r.record_kind = 'fee'
    UNION SELECT (o.operate_time AT TIME ZONE 'UTC')::date FROM %1$s r
      JOIN operate_records o
        ON o.client_request_id = regexp_replace(r.record_ref, '#[^#]*$', '') COLLATE "default"
      WHERE r.side = 'provider' AND r.record_kind = 'fee'
    UNION SELECT (o.operate_time AT TIME ZONE 'UTC')::date FROM %1$s r
      JOIN operate_records o ON o.client_request_id = r.record_ref COLLATE "default"
      WHERE r.side = 'provider' AND r.record_kind = 'card_operation'
    UNION SELECT (a.balance_upd_date AT TIME ZONE 'UTC')::date FROM %1$s r
      JOIN account_transactions a
        ON a.service_id = regexp_replace(r.record_ref, ':[^:]*$', '') COLLATE "default"
      WHERE r.side = 'provider' AND r.record_kind = 'account'
    UNION SELECT (o.operate_time AT TIME ZONE 'UTC')::date FROM %1$s r
      JOIN operate_records o
        ON o.operate_record_id = regexp_replace(r.record_ref, ':[^:]*$', '') COLLATE "default"
      WHERE r.side = 'provider' AND r.record_kind = 'cash_leg'
    UNION SELECT (a.balance_upd_date AT TIME ZONE 'UTC')::date FROM %1$s r
      JOIN account_transactions a
        ON a.service_id = regexp_replace(r.record_ref, ':[^:]*$', '') COLLATE "default"
      WHERE r.side = 'provider' AND r.record_kind = 'cash_leg'
  $q$, r)
$f$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION finance_row_days_sql(t name, rows_rel text) RETURNS text LANGUAGE sql IMMUTABLE AS $f$
  SELECT CASE t
    WHEN 'card_transactions' THEN format(
      'SELECT (coalesce(settle_time, transaction_time) AT TIME ZONE ''UTC'')::date FROM %s x', rows_rel)
    WHEN 'ledger_entries' THEN format(
      'SELECT (booked_at AT TIME ZONE ''UTC'')::date FROM %s x', rows_rel)
    -- An operation's own lines and its fees', and the account movements it hides (an account
    -- item is shown only while no operation has its serviceId).
    WHEN 'operate_records' THEN format(
      'SELECT (operate_time AT TIME ZONE ''UTC'')::date FROM %1$s x
       UNION SELECT (a.balance_upd_date AT TIME ZONE ''UTC'')::date FROM account_transactions a
         WHERE a.service_id IN (SELECT operate_record_id FROM %1$s y)', rows_rel)
    WHEN 'operate_record_fees' THEN format(
      'SELECT (o.operate_time AT TIME ZONE ''UTC'')::date FROM operate_records o
       WHERE o.operate_record_id IN (SELECT operate_record_id FROM %s x)', rows_rel)
    WHEN 'account_transactions' THEN format(
      'SELECT (balance_upd_date AT TIME ZONE ''UTC'')::date FROM %1$s x
       UNION SELECT (a.balance_upd_date AT TIME ZONE ''UTC'')::date FROM account_transactions a
         WHERE a.service_id IN (SELECT service_id FROM %1$s y)', rows_rel)
    -- A serviceId fetched (or fetched again) puts its operation's cash leg on the statement
    -- (finance_cash_leg_differences reads fetched serviceIds only): the operation's day and
    -- its postings'.
    WHEN 'service_ids' THEN format(
      'SELECT (o.operate_time AT TIME ZONE ''UTC'')::date FROM operate_records o
       WHERE o.operate_record_id IN (SELECT service_id FROM %1$s x)
       UNION SELECT (a.balance_upd_date AT TIME ZONE ''UTC'')::date FROM account_transactions a
         WHERE a.service_id IN (SELECT service_id FROM %1$s y)', rows_rel)
    WHEN 'break_records' THEN finance_record_days_sql(rows_rel)
    WHEN 'breaks' THEN finance_record_days_sql(format(
      '(SELECT b.side, b.record_kind, b.record_ref FROM break_records b
        WHERE b.break_id IN (SELECT break_id FROM %s x))', rows_rel))
    WHEN 'break_workflow' THEN finance_record_days_sql(format(
      '(SELECT b.side, b.record_kind, b.record_ref FROM break_records b
        WHERE b.break_id IN (SELECT break_id COLLATE "C" FROM %s x))', rows_rel))
    -- A fee's gross leg is on its match's ledger entry's day: every member of the match.
    WHEN 'match_group_members' THEN finance_record_days_sql(format(
      '(SELECT side, record_kind, record_ref FROM %1$s x
        UNION ALL SELECT m.side, m.record_kind, m.record_ref FROM match_group_members m
        WHERE m.match_id IN (SELECT match_id FROM %1$s y))', rows_rel))
    WHEN 'match_groups' THEN finance_record_days_sql(format(
      '(SELECT m.side, m.record_kind, m.record_ref FROM match_group_members m
        WHERE m.match_id IN (SELECT match_id FROM %s x))', rows_rel))
    WHEN 'match_pairs' THEN finance_record_days_sql(format(
      '(SELECT ''provider''::text AS side, record_kind, record_ref FROM %1$s x
        UNION ALL SELECT ''ledger'', ''ledger_entry'', entry_id FROM %1$s y)', rows_rel))
  END
$f$;
--> statement-breakpoint
-- The statement lines read service_ids now: the figures' triggers follow them (migration 0024).
SELECT finance_watch_tables();
