-- Where each stream's follow-up of records still P left off: the next run starts after that
-- record and wraps around, so past the per-run cap every pending record is read in turn.
CREATE TABLE "sync_follow_cursors" (
	"stream" text PRIMARY KEY NOT NULL,
	"after_time" timestamp with time zone NOT NULL,
	"after_key" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
