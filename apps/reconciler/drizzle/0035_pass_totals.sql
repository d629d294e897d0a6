-- The stored results' totals an incremental run reports are kept as the results are written:
-- match_totals gains the leftovers' counts per side, match_pass_totals holds the match groups per
-- pass and the cash legs, so no run counts every stored leftover and group to report them. The
-- totals are written anew by the next run, which matches everything: its stored totals are
-- dropped (an incremental run needs them) and the change log asks for it.
DELETE FROM match_totals;--> statement-breakpoint
CREATE TABLE "match_pass_totals" (
	"pass" text PRIMARY KEY NOT NULL,
	"groups" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "match_totals" ADD COLUMN "provider_leftovers" bigint NOT NULL;--> statement-breakpoint
ALTER TABLE "match_totals" ADD COLUMN "ledger_leftovers" bigint NOT NULL;--> statement-breakpoint
-- WAL-logged like the other match tables (migration 0020): a crash keeps it with the totals it
-- goes with.
INSERT INTO match_changes (kind, ref) VALUES ('all', 'migration 0035: pass totals');
