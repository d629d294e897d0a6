-- The match results are written to the WAL like every other table, so a hot standby holds them
-- and finance reads there (RECONCILER_READ_DATABASE_URL): a standby cannot read an unlogged
-- table at all ("cannot access temporary or unlogged relations during recovery"), so every
-- finance view failed on one. A crash no longer empties them either.
ALTER TABLE match_pairs SET LOGGED;
--> statement-breakpoint
ALTER TABLE match_groups SET LOGGED;
--> statement-breakpoint
ALTER TABLE match_group_members SET LOGGED;
--> statement-breakpoint
ALTER TABLE match_leftovers SET LOGGED;
--> statement-breakpoint
ALTER TABLE match_totals SET LOGGED;
