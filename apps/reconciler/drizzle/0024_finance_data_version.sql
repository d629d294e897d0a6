-- The version of the figures a reader keeps (the console's statement and fees: seconds to
-- compute over 100,000 card transactions): a sequence that every write to what
-- finance_daily_statement and finance_fees_by_type read advances, so the reader knows whether
-- they changed by reading one number (report/figures-cache.ts). Triggers per statement on each
-- table those views read, through other views too: an insert or delete of rows, an update of a
-- column they read, a truncate. A comment or an assignment on a break updates columns no
-- statement reads and keeps the figures. A sequence, not a counter row: nextval takes no row
-- lock, so writers in parallel (the sync's streams) never wait on each other for it. A writing
-- transaction also holds a shared advisory lock (finance_data_lock_key) until it ends, so a
-- reader can tell that no writer whose advance it read is still uncommitted.
CREATE SEQUENCE finance_data_version;
--> statement-breakpoint
-- advisoryKey("finance-data") (db/advisory-key.ts): one place for writers and readers.
CREATE FUNCTION finance_data_lock_key() RETURNS bigint LANGUAGE sql IMMUTABLE AS
$$ SELECT 5820031037983934689::bigint $$;
--> statement-breakpoint
CREATE FUNCTION finance_data_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  wrote boolean := true;
BEGIN
  -- An INSERT … ON CONFLICT DO NOTHING or a DELETE that met no row changed nothing.
  IF TG_OP = 'INSERT' THEN
    EXECUTE 'SELECT EXISTS (SELECT 1 FROM new_rows)' INTO wrote;
  ELSIF TG_OP = 'DELETE' THEN
    EXECUTE 'SELECT EXISTS (SELECT 1 FROM old_rows)' INTO wrote;
  END IF;
  IF wrote THEN
    PERFORM pg_advisory_xact_lock_shared(finance_data_lock_key());
    PERFORM nextval('finance_data_version');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The columns the kept views read, per table (column_name NULL: the table as a whole), from the
-- dependencies Postgres records for each view's query, through the views they read.
CREATE FUNCTION finance_watched_columns() RETURNS TABLE (table_name name, column_name name)
LANGUAGE sql STABLE AS $$
  WITH RECURSIVE views(oid) AS (
    SELECT c.oid FROM pg_class c
    WHERE c.relname IN ('finance_daily_statement', 'finance_fees_by_type')
      AND c.relnamespace = current_schema()::regnamespace
    UNION
    SELECT d.refobjid FROM views
    JOIN pg_rewrite r ON r.ev_class = views.oid
    JOIN pg_depend d ON d.classid = 'pg_rewrite'::regclass AND d.objid = r.oid
      AND d.refclassid = 'pg_class'::regclass AND d.refobjid <> views.oid
    JOIN pg_class c ON c.oid = d.refobjid AND c.relkind IN ('v', 'm')
  )
  SELECT DISTINCT c.relname, a.attname FROM views
  JOIN pg_rewrite r ON r.ev_class = views.oid
  JOIN pg_depend d ON d.classid = 'pg_rewrite'::regclass AND d.objid = r.oid
    AND d.refclassid = 'pg_class'::regclass
  JOIN pg_class c ON c.oid = d.refobjid AND c.relkind IN ('r', 'p') AND c.relpersistence <> 't'
  LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = d.refobjsubid AND d.refobjsubid > 0
$$;
--> statement-breakpoint
-- (Re)creates the triggers of every watched table from finance_watched_columns. A migration
-- that changes what the kept views read ends with SELECT finance_watch_tables(); the test
-- figures-cache.test.ts fails until the triggers match the views.
CREATE FUNCTION finance_watch_tables() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  t name;
  columns text;
BEGIN
  FOR t IN SELECT c.relname FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid
    WHERE g.tgname = 'finance_data_update' AND c.relnamespace = current_schema()::regnamespace
  LOOP
    EXECUTE format('DROP TRIGGER finance_data_insert ON %I', t);
    EXECUTE format('DROP TRIGGER finance_data_update ON %I', t);
    EXECUTE format('DROP TRIGGER finance_data_delete ON %I', t);
    EXECUTE format('DROP TRIGGER finance_data_truncate ON %I', t);
  END LOOP;
  FOR t, columns IN SELECT w.table_name,
      CASE WHEN bool_or(w.column_name IS NULL) AND count(w.column_name) = 0 THEN ''
        ELSE ' OF ' || string_agg(quote_ident(w.column_name), ', ' ORDER BY w.column_name) END
    FROM finance_watched_columns() w GROUP BY w.table_name
  LOOP
    EXECUTE format('CREATE TRIGGER finance_data_insert AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION finance_data_changed()', t);
    EXECUTE format('CREATE TRIGGER finance_data_update AFTER UPDATE%s ON %I FOR EACH STATEMENT EXECUTE FUNCTION finance_data_changed()', columns, t);
    EXECUTE format('CREATE TRIGGER finance_data_delete AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION finance_data_changed()', t);
    EXECUTE format('CREATE TRIGGER finance_data_truncate AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION finance_data_changed()', t);
  END LOOP;
END $$;
--> statement-breakpoint
SELECT finance_watch_tables();
