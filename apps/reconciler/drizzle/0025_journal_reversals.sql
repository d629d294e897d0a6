ALTER TABLE "journal_entries" ADD COLUMN "reverses_id" bigint;--> statement-breakpoint
CREATE UNIQUE INDEX "journal_entries_reverses_idx" ON "journal_entries" USING btree ("reverses_id");