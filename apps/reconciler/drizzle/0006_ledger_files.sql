CREATE TABLE "ledger_files" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_files_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"status" text NOT NULL,
	"rows" integer NOT NULL,
	"reason" text,
	"taken_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_files_status_check" CHECK ("ledger_files"."status" in ('imported', 'rejected', 'duplicate'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_files_imported_sha_idx" ON "ledger_files" USING btree ("sha256") WHERE "ledger_files"."status" = 'imported';