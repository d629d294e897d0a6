CREATE TABLE "ledger_source_files" (
	"source_file" text PRIMARY KEY NOT NULL,
	"header_hash" text NOT NULL,
	"line_hashes" text NOT NULL,
	"entry_ids" text NOT NULL,
	"entries" integer NOT NULL,
	"imported_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "ledger_entries_source_idx" ON "ledger_entries" USING btree ("source_file","updated_at");