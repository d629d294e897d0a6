ALTER TABLE "break_workflow" ADD COLUMN "accepted_provider_amount" numeric;--> statement-breakpoint
ALTER TABLE "break_workflow" ADD COLUMN "accepted_ledger_amount" numeric;--> statement-breakpoint
-- An acceptance made before this migration recorded the absolute amount only: it takes the
-- break's signed sides as they are now, the best record there is (a sign that flipped before
-- this migration cannot be told; any later change lapses it).
UPDATE break_workflow w SET accepted_provider_amount = b.provider_amount,
  accepted_ledger_amount = b.ledger_amount
FROM breaks b WHERE b.break_id = w.break_id AND w.accepted_at IS NOT NULL;
