CREATE TABLE "match_leftovers" (
	"side" text NOT NULL,
	"ref" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "match_totals" (
	"exact_pairs" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "break_records" ADD COLUMN "card_id" text;--> statement-breakpoint
CREATE INDEX "match_leftovers_ref_idx" ON "match_leftovers" USING btree ("side","ref");--> statement-breakpoint
-- Like the other match tables: derived data, unlogged (a crash empties them; the next run
-- rebuilds them), refs compared byte by byte.
ALTER TABLE match_leftovers SET UNLOGGED;--> statement-breakpoint
ALTER TABLE match_totals SET UNLOGGED;--> statement-breakpoint
ALTER TABLE match_leftovers ALTER COLUMN ref TYPE text COLLATE "C";--> statement-breakpoint
-- The stored results have no totals yet and their break records no card: the next run matches
-- everything and writes them.
INSERT INTO match_changes (kind, ref) VALUES ('all', 'migration 0012');
