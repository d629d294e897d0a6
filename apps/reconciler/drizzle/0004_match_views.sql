-- Exact pairs are one row in match_pairs; chains, gross operations, proposals and cash legs are
-- match_groups with their match_group_members. The views matches and match_members show both
-- as before (one match per pair, with its provider and its ledger member), so every query of
-- the old tables answers the same. The new tables start empty: the next run writes them whole.
ALTER TABLE match_pairs ALTER COLUMN record_kind TYPE text COLLATE "C",
  ALTER COLUMN record_ref TYPE text COLLATE "C", ALTER COLUMN entry_id TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE match_groups ALTER COLUMN match_id TYPE text COLLATE "C";
--> statement-breakpoint
ALTER TABLE match_group_members ALTER COLUMN match_id TYPE text COLLATE "C",
  ALTER COLUMN side TYPE text COLLATE "C", ALTER COLUMN record_kind TYPE text COLLATE "C",
  ALTER COLUMN record_ref TYPE text COLLATE "C";
--> statement-breakpoint
-- Derived data every run recomputes: unlogged (a crash empties them; the next run rebuilds them).
ALTER TABLE match_pairs SET UNLOGGED;
--> statement-breakpoint
ALTER TABLE match_groups SET UNLOGGED;
--> statement-breakpoint
ALTER TABLE match_group_members SET UNLOGGED;
--> statement-breakpoint
-- matches: every live match, exact:<kind>:<ref> for a pair, the group's id otherwise.
CREATE VIEW matches AS
SELECT 'exact:' || record_kind || ':' || record_ref AS match_id, 'exact'::text AS pass,
  'confirmed'::text AS status, currency, amount AS provider_amount, amount AS ledger_amount,
  first_run_id, created_at
FROM match_pairs
UNION ALL
SELECT match_id, pass, status, currency, provider_amount, ledger_amount, first_run_id, created_at
FROM match_groups;
--> statement-breakpoint
-- match_members: every record in a live match. A pair gives two (its provider record and its
-- ledger entry); the branches stay separate so a filter on side reads one of them only.
CREATE VIEW match_members AS
SELECT 'exact:' || record_kind || ':' || record_ref AS match_id, 'provider'::text AS side,
  record_kind, record_ref, amount, currency
FROM match_pairs
UNION ALL
SELECT 'exact:' || record_kind || ':' || record_ref, 'ledger', 'ledger_entry', entry_id, amount,
  currency
FROM match_pairs
UNION ALL
SELECT match_id, side, record_kind, record_ref, amount, currency FROM match_group_members;
--> statement-breakpoint
-- The statement views read match_members; dropping the old table dropped them: the same
-- definitions again, now over the view.
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
