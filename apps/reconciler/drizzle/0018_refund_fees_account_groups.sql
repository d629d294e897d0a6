-- provider_items, restated whole with two changes (columns and types as before, so the views
-- that read it stay as they are):
-- - the fees of a settled refund are fee items, as those of a settled clearing: a fee credited
--   back on a refund (transactionFee -1.00) is money the provider moved, and the view's sign
--   (fee amounts negated) makes it a +1.00 item, booked as a fee line of +1.00 on the refund.
--   Before, only clearings' fees were read: an unbooked credited fee went unnoticed, a booked
--   one was a fee_mismatch "that the provider did not charge".
-- - an account item's record_type is the smallest business type of its postings other than
--   FEE (FEE only when every posting is a fee): a payout with its fee is a PAYOUT, not a FEE,
--   in the break details that name it.
CREATE OR REPLACE VIEW provider_items AS
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
WHERE c.txn_status = 'S' AND c.txn_type IN ('CLEARING', 'REFUND') AND f.amount IS NOT NULL
  AND f.amount <> 0
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
  a.currency, NULL, max(a.balance_upd_date),
  coalesce(min(a.business_type) FILTER (WHERE a.business_type <> 'FEE'), min(a.business_type)),
  NULL, NULL
FROM account_transactions a
WHERE NOT EXISTS (SELECT 1 FROM operate_records o WHERE o.operate_record_id = a.service_id)
GROUP BY a.service_id, a.currency;
