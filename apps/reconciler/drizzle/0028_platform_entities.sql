ALTER TABLE "account_transactions" ADD COLUMN "entity" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "entity" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_staging" ADD COLUMN "entity" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "breaks" ADD COLUMN "entity" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "service_ids" ADD COLUMN "entity" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "breaks_entity_idx" ON "breaks" USING btree ("entity","status");--> statement-breakpoint
-- Entities (issue 39): every stored account movement, ledger entry, serviceId and break names
-- the entity it belongs to, '' for the merchant itself (docs/assumptions.md, "Entities"), so a
-- database of one merchant keeps every row, key and figure as it was. The views below are
-- restated with entity as their new last column; nothing else in them changes.
--
-- provider_items: an account item is one entity's (serviceIds are never shared between
-- merchants); card records, operations and their fees are the merchant's own ('').
CREATE OR REPLACE VIEW provider_items AS
SELECT 'card_transaction'::text AS kind, c.txn_order_no AS ref, ''::text AS fee_type,
  c.txn_order_no AS item_ref, 'card_transaction'::text AS parent_kind,
  CASE WHEN c.txn_type = 'REFUND' THEN c.settle_amount ELSE -c.settle_amount END AS amount,
  c.settle_currency AS currency, c.card_id, coalesce(c.settle_time, c.transaction_time) AS occurred_at,
  c.txn_type AS record_type, c.origin_txn_order_no AS origin_ref,
  c.origin_txn_order_no_for_refund AS refund_of, ''::text AS entity
FROM card_transactions c
WHERE c.txn_status = 'S' AND c.txn_type IN ('CLEARING', 'REFUND') AND c.settle_amount IS NOT NULL
UNION ALL
SELECT 'fee', c.txn_order_no, f.fee_type, c.txn_order_no || '#' || f.fee_type, 'card_transaction',
  -f.amount, f.currency, c.card_id, coalesce(c.settle_time, c.transaction_time), c.txn_type,
  c.origin_txn_order_no, NULL, ''
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
  o.card_id, o.operate_time, o.type, o.operate_record_id, NULL, ''
FROM operate_records o
WHERE o.status = 'S' AND o.amount IS NOT NULL AND o.amount <> 0
UNION ALL
SELECT 'fee', o.client_request_id, f.fee_type, o.client_request_id || '#' || f.fee_type,
  'card_operation', -sum(f.fee_amount), f.fee_currency, o.card_id, o.operate_time, o.type,
  o.operate_record_id, NULL, ''
FROM operate_records o JOIN operate_record_fees f ON f.operate_record_id = o.operate_record_id
WHERE o.status = 'S'
GROUP BY o.client_request_id, f.fee_type, f.fee_currency, o.card_id, o.operate_time, o.type,
  o.operate_record_id
HAVING sum(f.fee_amount) <> 0
UNION ALL
SELECT 'account', a.service_id, '', a.service_id || ':' || a.currency, 'account', sum(a.amount),
  a.currency, NULL, max(a.balance_upd_date),
  coalesce(min(a.business_type) FILTER (WHERE a.business_type <> 'FEE'), min(a.business_type)),
  NULL, NULL, a.entity
FROM account_transactions a
WHERE NOT EXISTS (SELECT 1 FROM operate_records o WHERE o.operate_record_id = a.service_id)
GROUP BY a.service_id, a.currency, a.entity;
--> statement-breakpoint
-- finance_statement_lines: each line's entity (a provider item's or a ledger entry's).
CREATE OR REPLACE VIEW finance_statement_lines AS
WITH legs AS (
  SELECT (p.occurred_at AT TIME ZONE 'UTC')::date AS day, p.currency, p.amount AS provider_amount,
    0::numeric AS ledger_amount, 'provider'::text AS side, p.kind AS record_kind, p.item_ref AS record_ref,
    p.entity
  FROM provider_items p
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
-- finance_entity_currency_bridge: finance_currency_bridge per entity and currency, from the
-- same lines; finance_currency_bridge is now its sum over the entities per currency (the
-- platform's total, never summing currencies), to the cent the same as before.
CREATE VIEW finance_entity_currency_bridge AS
WITH by_line AS (
  SELECT entity, currency, explanation, sum(provider_amount) AS provider_amount,
    sum(ledger_amount) AS ledger_amount, sum(provider_amount - ledger_amount) AS difference
  FROM finance_statement_lines GROUP BY entity, currency, explanation
)
SELECT entity, currency,
  sum(provider_amount) AS provider_total,
  sum(ledger_amount) AS ledger_total,
  sum(difference) AS difference,
  coalesce(sum(difference) FILTER (WHERE explanation = 'matched'), 0) AS timing,
  coalesce(sum(difference) FILTER (WHERE explanation NOT IN ('matched', 'pending', 'unexplained', 'accepted')), 0) AS open_breaks,
  coalesce(sum(difference) FILTER (WHERE explanation = 'pending'), 0) AS pending,
  coalesce(sum(difference) FILTER (WHERE explanation = 'accepted'), 0) AS accepted,
  coalesce(sum(difference) FILTER (WHERE explanation = 'unexplained'), 0) AS unexplained,
  coalesce(jsonb_object_agg(explanation, difference) FILTER (WHERE explanation NOT IN ('matched', 'pending', 'unexplained', 'accepted')), '{}'::jsonb) AS by_class
FROM by_line GROUP BY entity, currency;
--> statement-breakpoint
CREATE OR REPLACE VIEW finance_currency_bridge AS
SELECT b.currency,
  sum(b.provider_total) AS provider_total,
  sum(b.ledger_total) AS ledger_total,
  sum(b.difference) AS difference,
  sum(b.timing) AS timing,
  sum(b.open_breaks) AS open_breaks,
  sum(b.pending) AS pending,
  sum(b.accepted) AS accepted,
  sum(b.unexplained) AS unexplained,
  (SELECT coalesce(jsonb_object_agg(c.explanation, c.difference), '{}'::jsonb)
    FROM (SELECT j.key AS explanation, sum(j.value::numeric) AS difference
      FROM finance_entity_currency_bridge e CROSS JOIN LATERAL jsonb_each_text(e.by_class) AS j
      WHERE e.currency = b.currency GROUP BY j.key) c) AS by_class
FROM finance_entity_currency_bridge b GROUP BY b.currency;
--> statement-breakpoint
-- finance_break_workflow, finance_open_breaks: the break's entity.
CREATE OR REPLACE VIEW finance_break_workflow AS
SELECT b.break_id, b.class, b.priority,
  CASE WHEN b.status <> 'resolved' AND w.accepted_at IS NOT NULL THEN 'accepted' ELSE b.status END AS status,
  b.record_kind, b.provider_ref, b.entry_id, b.currency, b.amount, b.provider_amount,
  b.ledger_amount, b.detail, b.occurred_at, b.first_seen_at, b.opened_at, b.resolved_at,
  floor(extract(epoch FROM (coalesce(r.as_of, now()) - coalesce(b.opened_at, b.first_seen_at))) / 86400)::int AS days_open,
  w.assignee, w.assigned_at, w.accepted_by, w.accepted_at, w.accepted_reason,
  w.last_action, w.last_actor, w.last_action_at,
  floor(extract(epoch FROM (coalesce(r.as_of, now()) - b.occurred_at)) / 86400)::int AS record_age_days,
  b.entity
FROM breaks b
LEFT JOIN break_workflow w ON w.break_id = b.break_id
LEFT JOIN finance_latest_run r ON true;
--> statement-breakpoint
CREATE OR REPLACE VIEW finance_open_breaks AS
SELECT b.priority, b.class, b.status, b.break_id, b.record_kind, b.provider_ref, b.entry_id,
  b.currency, b.amount, b.provider_amount, b.ledger_amount, b.detail, b.occurred_at,
  floor(extract(epoch FROM (coalesce(r.as_of, now()) - b.occurred_at)) / 86400)::int AS age_days,
  b.first_seen_at, b.opened_at, b.previous_class,
  w.assignee, w.last_action, w.last_actor, w.last_action_at,
  floor(extract(epoch FROM (coalesce(r.as_of, now()) - coalesce(b.opened_at, b.first_seen_at))) / 86400)::int AS days_open,
  b.entity
FROM breaks b
LEFT JOIN break_workflow w ON w.break_id = b.break_id
LEFT JOIN finance_latest_run r ON true
WHERE b.status IN ('open', 'pending') AND w.accepted_at IS NULL
ORDER BY CASE b.status WHEN 'open' THEN 0 ELSE 1 END, b.priority, b.amount DESC, b.break_id;
--> statement-breakpoint
-- finance_break_effects: the break's entity, so the report splits effects per entity.
CREATE OR REPLACE VIEW finance_break_effects AS
SELECT w.break_id, w.class, w.status, w.status = 'accepted' AS accepted, r.currency,
  sum(CASE WHEN r.side = 'provider' THEN coalesce(r.amount, 0) ELSE -coalesce(r.amount, 0) END) AS effect,
  w.occurred_at, w.entity
FROM finance_break_workflow w
JOIN break_records r ON r.break_id = w.break_id
WHERE w.status <> 'resolved' AND r.currency IS NOT NULL
GROUP BY w.break_id, w.class, w.status, r.currency, w.occurred_at, w.entity;
--> statement-breakpoint
-- finance_parked_service_ids: whose serviceId it is (a sub-merchant the parent may not act for
-- has every serviceId of its own parked with the service's answer).
CREATE OR REPLACE VIEW finance_parked_service_ids AS
SELECT s.service_id, s.source, s.parked_at, s.parked_reason,
  (SELECT string_agg(l.entry_id, ', ' ORDER BY l.entry_id) FROM ledger_entries l
    WHERE l.kind = 'account' AND l.provider_ref = s.service_id) AS ledger_entry_ids,
  s.entity
FROM service_ids s
WHERE s.parked_reason IS NOT NULL;
--> statement-breakpoint
-- The views above read entity columns now: the figures' triggers follow them (migration 0024).
SELECT finance_watch_tables();
