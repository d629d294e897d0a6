-- An authorization its clearings and reversals used in full holds nothing: it is neither a
-- stale_authorization break nor a row of finance_stale_authorizations ("authorizations still
-- holding money"), though its own status may stay P in the store (the service settles it after
-- the sync's lookback). Both listed such authorizations with a hold of 0.00.
CREATE OR REPLACE VIEW finance_stale_authorizations AS
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
    AND a.card_amount > coalesce(u.used, 0)
)
SELECT txn_order_no, card_id, card_currency, transaction_time, open_hold, floor(age_days)::int AS age_days,
  CASE WHEN age_days < 2 THEN '0-1d' WHEN age_days < 8 THEN '2-7d' WHEN age_days < 31 THEN '8-30d'
    ELSE '>30d' END AS age_bucket
FROM open_auths;
--> statement-breakpoint
-- The stored results still hold such breaks: the next match run matches everything (an
-- incremental one would keep them, nothing about them having changed).
INSERT INTO match_changes (kind, ref) VALUES ('all', 'migration 0015: stale holds');
