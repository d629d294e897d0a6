-- Matching rules 3 (match/run-match.ts MATCH_RULES): a currency_mismatch's amount at stake is
-- its provider side whole, in the provider's currency (breaks.currency); the earlier rules wrote
-- the ledger's amount, other money, under the provider's currency. The stored breaks, the
-- acceptances and write-offs of them and the requests waiting for a second approver take the
-- new amount of the same records now: the views and the console are right before the first
-- (full) run after the upgrade, and that run does not lapse an acceptance (and reverse a
-- write-off's journal entries) for the new arithmetic alone; a change of the records still does.
-- Only rows holding what the earlier rule gave (the ledger's amount) are changed.
UPDATE breaks SET amount = abs(provider_amount)
WHERE class = 'currency_mismatch' AND provider_amount IS NOT NULL AND ledger_amount IS NOT NULL
  AND amount = abs(ledger_amount) AND amount <> abs(provider_amount);
--> statement-breakpoint
UPDATE break_workflow SET accepted_amount = abs(accepted_provider_amount)
WHERE accepted_at IS NOT NULL AND accepted_class = 'currency_mismatch'
  AND accepted_provider_amount IS NOT NULL AND accepted_ledger_amount IS NOT NULL
  AND accepted_amount = abs(accepted_ledger_amount)
  AND accepted_amount <> abs(accepted_provider_amount);
--> statement-breakpoint
UPDATE approval_requests r SET amount = abs(r.provider_amount)
FROM breaks b
WHERE b.break_id = r.break_id AND r.decided_at IS NULL AND b.class = 'currency_mismatch'
  AND r.provider_amount IS NOT NULL AND r.ledger_amount IS NOT NULL
  AND r.amount = abs(r.ledger_amount) AND r.amount <> abs(r.provider_amount);
