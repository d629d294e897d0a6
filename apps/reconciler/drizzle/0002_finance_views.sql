-- Ids in the matching tables compare byte by byte (COLLATE "C"): ties are broken the same way
-- on every server whatever its locale, and sorting and indexing millions of them is several
-- times cheaper than with a linguistic collation. (drizzle-kit does not track collations.)
ALTER TABLE ledger_entries ALTER COLUMN entry_id TYPE text COLLATE "C",
  ALTER COLUMN provider_ref TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE match_members ALTER COLUMN match_id TYPE text COLLATE "C",
  ALTER COLUMN side TYPE text COLLATE "C", ALTER COLUMN record_kind TYPE text COLLATE "C",
  ALTER COLUMN record_ref TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE matches ALTER COLUMN match_id TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE break_records ALTER COLUMN break_id TYPE text COLLATE "C",
  ALTER COLUMN side TYPE text COLLATE "C", ALTER COLUMN record_kind TYPE text COLLATE "C",
  ALTER COLUMN record_ref TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE breaks ALTER COLUMN break_id TYPE text COLLATE "C";
--> statement-breakpoint
-- provider_items: the provider's money movements, one row per thing the ledger books: a settled
-- clearing (debit) or refund (credit), each fee of a settled clearing, a settled card operation
-- that moves money (CREATE/DEPOSIT debit the merchant account, RETURN/TERMINATE credit it) and
-- its fees, and per serviceId and currency the account postings that belong to no card
-- operation (top-ups, payouts). Matching and the finance views read the same definition.
CREATE VIEW provider_items AS
SELECT 'card_transaction'::text AS kind, c.txn_order_no AS ref, ''::text AS fee_type,
  c.txn_order_no AS item_ref, 'card_transaction'::text AS parent_kind,
  CASE WHEN c.txn_type = 'REFUND' THEN c.settle_amount ELSE -c.settle_amount END AS amount,
  c.settle_currency AS currency, c.card_id, coalesce(c.settle_time, c.transaction_time) AS occurred_at,
  c.txn_type AS record_type, c.origin_txn_order_no AS origin_ref,
  c.origin_txn_order_no_for_refund AS refund_of
FROM card_transactions c
WHERE c.txn_status = 'S' AND c.txn_type IN ('CLEARING', 'REFUND') AND c.settle_amount IS NOT NULL
UNION ALL
SELECT 'fee', c.txn_order_no, f.fee_type, c.txn_order_no || '#' || f.fee_type, 'card_transaction',
  -f.amount, f.currency, c.card_id, coalesce(c.settle_time, c.transaction_time), c.txn_type,
  c.origin_txn_order_no, NULL
FROM card_transactions c
CROSS JOIN LATERAL (VALUES
  ('TRANSACTION', c.transaction_fee, coalesce(c.transaction_fee_currency, c.settle_currency)),
  ('CROSS_BORDER', c.cross_border_fee, coalesce(c.cross_border_fee_currency, c.settle_currency)),
  ('EXCHANGE', c.exchange_fee, coalesce(c.exchange_fee_currency, c.settle_currency))
) AS f(fee_type, amount, currency)
WHERE c.txn_status = 'S' AND c.txn_type = 'CLEARING' AND f.amount IS NOT NULL AND f.amount <> 0
  AND (c.transaction_fee IS NOT NULL OR c.cross_border_fee IS NOT NULL OR c.exchange_fee IS NOT NULL)
UNION ALL
SELECT 'card_operation', o.client_request_id, '', o.client_request_id, 'card_operation',
  CASE WHEN o.type IN ('RETURN', 'TERMINATE') THEN o.amount ELSE -o.amount END, o.currency,
  o.card_id, o.operate_time, o.type, o.operate_record_id, NULL
FROM operate_records o
WHERE o.status = 'S' AND o.amount IS NOT NULL AND o.amount <> 0
UNION ALL
SELECT 'fee', o.client_request_id, f.fee_type, o.client_request_id || '#' || f.fee_type,
  'card_operation', -sum(f.fee_amount), f.fee_currency, o.card_id, o.operate_time, o.type,
  o.operate_record_id, NULL
FROM operate_records o JOIN operate_record_fees f ON f.operate_record_id = o.operate_record_id
WHERE o.status = 'S'
GROUP BY o.client_request_id, f.fee_type, f.fee_currency, o.card_id, o.operate_time, o.type,
  o.operate_record_id
HAVING sum(f.fee_amount) <> 0
UNION ALL
SELECT 'account', a.service_id, '', a.service_id || ':' || a.currency, 'account', sum(a.amount),
  a.currency, NULL, max(a.balance_upd_date), min(a.business_type), NULL, NULL
FROM account_transactions a
WHERE NOT EXISTS (SELECT 1 FROM operate_records o WHERE o.operate_record_id = a.service_id)
GROUP BY a.service_id, a.currency;
--> statement-breakpoint
-- finance_latest_run: the last finished match run (its as_of is "now" for ages in the views).
CREATE VIEW finance_latest_run AS
SELECT id, started_at, finished_at, as_of, verdict, reasons, stats, duration_ms
FROM match_runs WHERE finished_at IS NOT NULL AND verdict IS NOT NULL
ORDER BY started_at DESC LIMIT 1;
--> statement-breakpoint
-- finance_statement_lines: every money leg (provider item or ledger entry) with the day it
-- counts on (UTC), and what explains it: matched, the class of its open or pending break, or
-- unexplained (no match and no break: the run has not seen it yet).
CREATE VIEW finance_statement_lines AS
WITH legs AS (
  SELECT p.occurred_at::date AS day, p.currency, p.amount AS provider_amount, 0::numeric AS ledger_amount,
    'provider'::text AS side, p.kind AS record_kind, p.item_ref AS record_ref
  FROM provider_items p
  UNION ALL
  SELECT e.booked_at::date, e.currency, 0::numeric, e.amount, 'ledger', 'ledger_entry', e.entry_id
  FROM ledger_entries e
)
SELECT l.day, l.currency, l.side, l.record_kind, l.record_ref, l.provider_amount, l.ledger_amount,
  CASE WHEN b.status = 'open' THEN b.class
    WHEN b.status = 'pending' THEN 'pending'
    WHEN m.match_id IS NOT NULL THEN 'matched'
    ELSE 'unexplained' END AS explanation,
  b.break_id, m.match_id
FROM legs l
LEFT JOIN break_records br ON br.side = l.side AND br.record_kind = l.record_kind AND br.record_ref = l.record_ref
LEFT JOIN breaks b ON b.break_id = br.break_id AND b.status <> 'resolved'
LEFT JOIN match_members m ON m.side = l.side AND m.record_kind = l.record_kind AND m.record_ref = l.record_ref;
--> statement-breakpoint
-- finance_daily_statement: per day and currency, what the provider moved, what the ledger
-- booked, the difference, and the difference explained: matched legs booked on another day
-- (timing), open breaks by class, pending items, and what nothing explains (should be 0).
CREATE VIEW finance_daily_statement AS
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
  coalesce(jsonb_object_agg(explanation, difference) FILTER (WHERE explanation NOT IN ('matched', 'pending', 'unexplained')), '{}'::jsonb) AS by_class
FROM by_line GROUP BY day, currency;
--> statement-breakpoint
-- finance_open_breaks: the work queue, most urgent first (priority, then money at stake).
CREATE VIEW finance_open_breaks AS
SELECT b.priority, b.class, b.status, b.break_id, b.record_kind, b.provider_ref, b.entry_id,
  b.currency, b.amount, b.provider_amount, b.ledger_amount, b.detail, b.occurred_at,
  floor(extract(epoch FROM (coalesce(r.as_of, now()) - b.occurred_at)) / 86400)::int AS age_days,
  b.first_seen_at, b.opened_at, b.previous_class
FROM breaks b LEFT JOIN finance_latest_run r ON true
WHERE b.status IN ('open', 'pending')
ORDER BY CASE b.status WHEN 'open' THEN 0 ELSE 1 END, b.priority, b.amount DESC, b.break_id;
--> statement-breakpoint
-- finance_stale_authorizations: authorizations still holding money, by age bucket, with what
-- they still hold (authorized minus cleared and reversed, in card currency).
CREATE VIEW finance_stale_authorizations AS
WITH open_auths AS (
  SELECT a.txn_order_no, a.card_id, a.card_currency, a.transaction_time,
    greatest(a.card_amount - coalesce(u.used, 0), 0) AS open_hold,
    extract(epoch FROM (coalesce(r.as_of, now()) - a.transaction_time)) / 86400 AS age_days
  FROM card_transactions a
  LEFT JOIN LATERAL (SELECT sum(c.card_amount) AS used FROM card_transactions c
    WHERE c.origin_txn_order_no = a.txn_order_no AND c.txn_status = 'S'
      AND c.txn_type IN ('CLEARING', 'REVERSAL')) u ON true
  LEFT JOIN finance_latest_run r ON true
  WHERE a.txn_type = 'AUTHORIZATION' AND a.txn_status = 'P'
)
SELECT txn_order_no, card_id, card_currency, transaction_time, open_hold, floor(age_days)::int AS age_days,
  CASE WHEN age_days < 2 THEN '0-1d' WHEN age_days < 8 THEN '2-7d' WHEN age_days < 31 THEN '8-30d'
    ELSE '>30d' END AS age_bucket
FROM open_auths;
--> statement-breakpoint
-- finance_fees_by_type: fees per day, type and currency as the provider charged them and as the
-- ledger booked them.
CREATE VIEW finance_fees_by_type AS
WITH legs AS (
  SELECT p.occurred_at::date AS day, p.fee_type, p.currency, p.amount AS provider_amount,
    0::numeric AS ledger_amount
  FROM provider_items p WHERE p.kind = 'fee'
  UNION ALL
  SELECT e.booked_at::date, e.fee_type, e.currency, 0, e.amount FROM ledger_entries e WHERE e.kind = 'fee'
)
SELECT day, fee_type, currency, sum(provider_amount) AS provider_total, sum(ledger_amount) AS ledger_total,
  sum(provider_amount) - sum(ledger_amount) AS difference
FROM legs GROUP BY day, fee_type, currency;
--> statement-breakpoint
-- finance_sync_health: per stream, how far behind the sync is, how its last run ended, and
-- what is left to read again; account_transactions also counts serviceIds never fetched.
CREATE VIEW finance_sync_health AS
WITH streams AS (
  SELECT stream FROM sync_watermarks UNION SELECT stream FROM sync_runs WHERE kind <> 'webhook'
  UNION SELECT stream FROM sync_windows
), last_run AS (
  SELECT DISTINCT ON (stream) stream, started_at, finished_at, outcome, error FROM sync_runs
  WHERE kind <> 'webhook' ORDER BY stream, started_at DESC
)
SELECT s.stream, w.watermark,
  floor(extract(epoch FROM (now() - w.watermark)) / 60)::bigint AS lag_minutes,
  lr.started_at AS last_run_started_at, lr.finished_at AS last_run_finished_at,
  lr.outcome AS last_run_outcome, lr.error AS last_run_error,
  (SELECT count(*) FROM sync_windows sw WHERE sw.stream = s.stream AND sw.state <> 'done') AS windows_to_reread,
  CASE WHEN s.stream = 'account_transactions' THEN (SELECT count(*) FROM service_ids
    WHERE fetched_at IS NULL OR fetched_at < revealed_at) END AS service_ids_due
FROM streams s
LEFT JOIN sync_watermarks w ON w.stream = s.stream
LEFT JOIN last_run lr ON lr.stream = s.stream;
--> statement-breakpoint
-- Matches are derived data that every run recomputes from the provider tables and the ledger:
-- unlogged, they skip the write-ahead log (a crash empties them and the next run rebuilds them).
ALTER TABLE match_members SET UNLOGGED;
--> statement-breakpoint
ALTER TABLE matches SET UNLOGGED;
