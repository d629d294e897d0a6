-- Matching rules 2 (match/run-match.ts MATCH_RULES): a missing_in_ledger or missing_at_provider
-- break's amount is its record or entry with its fees (or fee lines) in its currency. An
-- acceptance or write-off of such a break made under the earlier rules takes the amounts the new
-- rules give the same records, so the first (full) run after the upgrade does not lapse it, and
-- reverse its journal entries, for the new arithmetic alone; a change of the records still does.
UPDATE break_workflow w SET
  accepted_amount = abs(t.total),
  accepted_provider_amount = CASE WHEN t.class = 'missing_in_ledger' THEN t.total
    ELSE w.accepted_provider_amount END,
  accepted_ledger_amount = CASE WHEN t.class = 'missing_at_provider' THEN t.total
    ELSE w.accepted_ledger_amount END
FROM (
  SELECT b.break_id, b.class, b.amount, sum(r.amount) AS total
  FROM breaks b
  JOIN break_records r ON r.break_id = b.break_id AND r.currency = b.currency
    AND r.side = CASE WHEN b.class = 'missing_in_ledger' THEN 'provider' ELSE 'ledger' END
  WHERE b.class IN ('missing_in_ledger', 'missing_at_provider') AND b.status <> 'resolved'
  GROUP BY b.break_id, b.class, b.amount
) t
WHERE w.break_id = t.break_id AND w.accepted_at IS NOT NULL AND w.accepted_class = t.class
  AND w.accepted_amount = t.amount AND abs(t.total) <> t.amount;
