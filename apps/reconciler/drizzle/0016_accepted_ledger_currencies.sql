ALTER TABLE "break_workflow" ADD COLUMN "accepted_ledger_currencies" text;--> statement-breakpoint
-- An acceptance made before this migration takes its break's ledger currencies as they are now,
-- the best record there is (a currency changed before this migration cannot be told).
UPDATE break_workflow w SET accepted_ledger_currencies = (
  SELECT string_agg(DISTINCT r.currency, '/' ORDER BY r.currency) FROM break_records r
  WHERE r.break_id = w.break_id AND r.side = 'ledger')
WHERE w.accepted_at IS NOT NULL;
