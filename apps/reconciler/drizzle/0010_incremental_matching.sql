CREATE TABLE "match_changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "match_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"ref" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "card_transactions_refund_of_idx" ON "card_transactions" USING btree ("origin_txn_order_no_for_refund");--> statement-breakpoint
CREATE INDEX "breaks_provider_ref_idx" ON "breaks" USING btree ("provider_ref");--> statement-breakpoint
CREATE INDEX "breaks_entry_idx" ON "breaks" USING btree ("entry_id");--> statement-breakpoint
-- match_changes is filled by statement-level triggers: one INSERT ... SELECT DISTINCT per
-- writing statement (a sync window, a ledger import, a webhook), never one per row. Arguments:
-- pairs of (kind, column) naming what a changed row touches, read from its new and old state.
CREATE FUNCTION match_changes_log() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  i integer := 0;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    INSERT INTO match_changes (kind, ref) VALUES ('all', TG_TABLE_NAME);
    RETURN NULL;
  END IF;
  WHILE i < TG_NARGS LOOP
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
      EXECUTE format('INSERT INTO match_changes (kind, ref) SELECT DISTINCT %L, %I::text FROM new_rows WHERE %I IS NOT NULL',
        TG_ARGV[i], TG_ARGV[i + 1], TG_ARGV[i + 1]);
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
      EXECUTE format('INSERT INTO match_changes (kind, ref) SELECT DISTINCT %L, %I::text FROM old_rows WHERE %I IS NOT NULL',
        TG_ARGV[i], TG_ARGV[i + 1], TG_ARGV[i + 1]);
    END IF;
    i := i + 2;
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
DO $$
DECLARE
  t record;
BEGIN
  -- A trigger with transition tables serves one event: three per table, and one for TRUNCATE.
  FOR t IN SELECT * FROM (VALUES
    ('card_transactions', '''key'', ''txn_order_no'''),
    ('operate_records', '''key'', ''operate_record_id'', ''key'', ''client_request_id'''),
    ('operate_record_fees', '''key'', ''operate_record_id'''),
    ('account_transactions', '''key'', ''service_id'''),
    ('service_ids', '''key'', ''service_id'''),
    ('ledger_entries', '''entry'', ''entry_id'', ''key'', ''provider_ref''')
  ) AS x(tbl, args) LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION match_changes_log(%s)',
      t.tbl || '_inserted', t.tbl, t.args);
    EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION match_changes_log(%s)',
      t.tbl || '_updated', t.tbl, t.args);
    EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION match_changes_log(%s)',
      t.tbl || '_deleted', t.tbl, t.args);
    EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION match_changes_log()',
      t.tbl || '_truncated', t.tbl);
  END LOOP;
END $$;
