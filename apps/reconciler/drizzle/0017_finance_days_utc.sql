-- The finance views' days are UTC days, whatever the session's TimeZone. They cast timestamptz
-- to date (occurred_at::date, booked_at::date), which takes the day in the session's zone: the
-- worker (its connections are UTC) and a psql session in New York or Tokyo saw other totals per
-- day, and an entry booked 2026-11-20 landed on 2026-11-19 in New York. The same definitions,
-- with every day taken in UTC (the day of statement.csv and of the report's --date).
CREATE OR REPLACE VIEW finance_statement_lines AS
WITH legs AS (
  SELECT (p.occurred_at AT TIME ZONE 'UTC')::date AS day, p.currency, p.amount AS provider_amount,
    0::numeric AS ledger_amount, 'provider'::text AS side, p.kind AS record_kind, p.item_ref AS record_ref
  FROM provider_items p
  UNION ALL
  SELECT (e.booked_at AT TIME ZONE 'UTC')::date, e.currency, 0::numeric, e.amount, 'ledger', 'ledger_entry',
    e.entry_id
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
-- finance_fees_by_type: UTC days too, and a fee the ledger booked inside an operation's entry
-- (booked gross of its fees, no fee line: docs/ledger-format.md) counts as booked, as matching
-- counts it: the fee items of an operation_gross match group, and those of an operation whose
-- gross entry is off by some amount (the p:gross: amount_mismatch break, which holds the whole
-- difference), on the day of that entry. They showed as not booked: query 6's difference was the
-- fees of every gross-booked operation. ledger_in_gross (new, last) is the part of ledger_total
-- booked that way, which no fee line of the ledger shows.
CREATE OR REPLACE VIEW finance_fees_by_type AS
WITH gross_fees AS (
  SELECT m.amount, m.currency, m.record_ref AS item_ref, l.record_ref AS entry_id
  FROM match_group_members m
  JOIN match_groups g ON g.match_id = m.match_id AND g.pass = 'operation_gross'
  JOIN match_group_members l ON l.match_id = m.match_id AND l.side = 'ledger' AND l.record_kind = 'ledger_entry'
  WHERE m.side = 'provider' AND m.record_kind = 'fee'
  UNION ALL
  SELECT r.amount, r.currency, r.record_ref, l.record_ref
  FROM breaks b
  JOIN break_records r ON r.break_id = b.break_id AND r.side = 'provider' AND r.record_kind = 'fee'
  JOIN break_records l ON l.break_id = b.break_id AND l.side = 'ledger' AND l.record_kind = 'ledger_entry'
  WHERE b.break_key LIKE 'p:gross:%' AND b.status <> 'resolved'
), legs AS (
  SELECT (p.occurred_at AT TIME ZONE 'UTC')::date AS day, p.fee_type, p.currency, p.amount AS provider_amount,
    0::numeric AS ledger_amount, 0::numeric AS gross_amount
  FROM provider_items p WHERE p.kind = 'fee'
  UNION ALL
  SELECT (e.booked_at AT TIME ZONE 'UTC')::date, e.fee_type, e.currency, 0, e.amount, 0
  FROM ledger_entries e WHERE e.kind = 'fee'
  UNION ALL
  -- The fee type is the item's suffix (<operation key>#<fee type>: fee types hold no '#'), in
  -- the column's collation (item refs compare byte by byte, COLLATE "C").
  SELECT (e.booked_at AT TIME ZONE 'UTC')::date, substring(f.item_ref FROM '#([^#]*)$') COLLATE "default",
    f.currency, 0, f.amount, f.amount
  FROM gross_fees f JOIN ledger_entries e ON e.entry_id = f.entry_id
)
SELECT day, fee_type, currency, sum(provider_amount) AS provider_total, sum(ledger_amount) AS ledger_total,
  sum(provider_amount) - sum(ledger_amount) AS difference, sum(gross_amount) AS ledger_in_gross
FROM legs GROUP BY day, fee_type, currency;
