-- A proposal decision that a match run finds no longer holding (a record changed, went away, or a
-- confirmation a rule now pairs otherwise) is stamped lapsed when its `lapse` audit row is
-- written, so the row is written once and the decision stays lapsed until someone decides again.
ALTER TABLE "proposal_decisions" ADD COLUMN "lapsed_at" timestamp with time zone;
