-- Which days of the figures a write changed, in a log a hot standby replays exactly (issues 36
-- and 37). Replaces migration 0024's version sequence: a sequence is WAL-logged only every 32
-- values, so a standby could show a version that stands still while the primary's figures move;
-- and the advisory lock that told a reader no writer was uncommitted does not exist on a
-- standby. Here every write to a table behind finance_daily_statement or finance_fees_by_type
-- adds, in its own transaction, one row per UTC day whose lines it may change: (xid, day), the
-- writer's top-level transaction id. A reader that computed its figures under one snapshot S
-- (report/figures-cache.ts) finds what changed since by the rows whose xid is at or past S's
-- xmin: a transaction below it had committed (or aborted) when S was taken, so its writes are in
-- the figures already; one at or past it may not be, and its rows show once it commits (it
-- wrote them with its data). The same on a primary and on a standby, which replays the rows.
-- day '-infinity' stands for every day (a truncate, a statement of more than 10,000 rows, a
-- table no day query is known for, a record without a time).
CREATE TABLE finance_changes (
  xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  day date NOT NULL,
  at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (xid, day)
);
--> statement-breakpoint
-- Old rows go (finance_prune_changes, called by the match run): a reader whose figures are older
-- than what is kept computes them whole again (report/figures-cache.ts).
CREATE INDEX finance_changes_at_idx ON finance_changes (at);
--> statement-breakpoint
CREATE FUNCTION finance_prune_changes(keep interval) RETURNS void LANGUAGE sql AS
$$ DELETE FROM finance_changes WHERE at < now() - keep $$;
--> statement-breakpoint
-- The statement's and the fees' lines of one day are read by these expressions (the day filter
-- reaches the tables through the views): an index each finds a day's records without reading
-- every record, and (once analysed) tells the planner how many a day holds.
CREATE INDEX card_transactions_day_idx ON card_transactions
  (((coalesce(settle_time, transaction_time) AT TIME ZONE 'UTC')::date));
--> statement-breakpoint
CREATE INDEX ledger_entries_day_idx ON ledger_entries (((booked_at AT TIME ZONE 'UTC')::date));
--> statement-breakpoint
-- The days the records named by a relation r (side, record_kind, record_ref: break_records and
-- match members name records so) put lines on: a provider item's day (occurred_at) and a ledger
-- entry's (booked_at), as provider_items and finance_statement_lines compute them. An account
-- item's day is the latest of its movements: every movement's day of that serviceId is taken
-- (one of them is the day before the write, one after). A record not stored (yet) has no day: its
-- own table's write names the day when it comes. Record refs compare byte by byte (COLLATE "C");
-- the records' keys are in the database's collation, which the comparison takes so their
-- indexes find the few records named instead of a scan of every one.
CREATE FUNCTION finance_record_days_sql(r text) RETURNS text LANGUAGE sql IMMUTABLE AS $f$
  SELECT format($q$
    SELECT (e.booked_at AT TIME ZONE 'UTC')::date FROM %1$s r
      JOIN ledger_entries e ON e.entry_id = r.record_ref WHERE r.side = 'ledger'
    UNION SELECT (coalesce(c.settle_time, c.transaction_time) AT TIME ZONE 'UTC')::date FROM %1$s r
      JOIN card_transactions c ON c.txn_order_no = r.record_ref COLLATE "default"
      WHERE r.side = 'provider' AND r.record_kind = 'card_transaction'
    UNION SELECT (coalesce(c.settle_time, c.transaction_time) AT TIME ZONE 'UTC')::date FROM %1$s r
      JOIN card_transactions c
        ON c.txn_order_no = regexp_replace(r.record_ref, '#[^#]*$', '') COLLATE "default"
      WHERE r.side = 'provider' AND r.record_kind = 'fee'
    UNION SELECT (o.operate_time AT TIME ZONE 'UTC')::date FROM %1$s r
      JOIN operate_records o
        ON o.client_request_id = regexp_replace(r.record_ref, '#[^#]*$', '') COLLATE "default"
      WHERE r.side = 'provider' AND r.record_kind = 'fee'
    UNION SELECT (o.operate_time AT TIME ZONE 'UTC')::date FROM %1$s r
      JOIN operate_records o ON o.client_request_id = r.record_ref COLLATE "default"
      WHERE r.side = 'provider' AND r.record_kind = 'card_operation'
    UNION SELECT (a.balance_upd_date AT TIME ZONE 'UTC')::date FROM %1$s r
      JOIN account_transactions a
        ON a.service_id = regexp_replace(r.record_ref, ':[^:]*$', '') COLLATE "default"
      WHERE r.side = 'provider' AND r.record_kind = 'account'
  $q$, r)
$f$;
--> statement-breakpoint
-- The days whose lines (statement or fees) rows of table t may be on, before or after a write,
-- as a query over the relation rows (the written rows): NULL for a table without one (every
-- day). A line's day is its record's; what explains it (a break, a match) is found through the
-- records the break or the match names.
CREATE FUNCTION finance_row_days_sql(t name, rows_rel text) RETURNS text LANGUAGE sql IMMUTABLE AS $f$
  SELECT CASE t
    WHEN 'card_transactions' THEN format(
      'SELECT (coalesce(settle_time, transaction_time) AT TIME ZONE ''UTC'')::date FROM %s x', rows_rel)
    WHEN 'ledger_entries' THEN format(
      'SELECT (booked_at AT TIME ZONE ''UTC'')::date FROM %s x', rows_rel)
    -- An operation's own lines and its fees', and the account movements it hides (an account
    -- item is shown only while no operation has its serviceId).
    WHEN 'operate_records' THEN format(
      'SELECT (operate_time AT TIME ZONE ''UTC'')::date FROM %1$s x
       UNION SELECT (a.balance_upd_date AT TIME ZONE ''UTC'')::date FROM account_transactions a
         WHERE a.service_id IN (SELECT operate_record_id FROM %1$s y)', rows_rel)
    WHEN 'operate_record_fees' THEN format(
      'SELECT (o.operate_time AT TIME ZONE ''UTC'')::date FROM operate_records o
       WHERE o.operate_record_id IN (SELECT operate_record_id FROM %s x)', rows_rel)
    WHEN 'account_transactions' THEN format(
      'SELECT (balance_upd_date AT TIME ZONE ''UTC'')::date FROM %1$s x
       UNION SELECT (a.balance_upd_date AT TIME ZONE ''UTC'')::date FROM account_transactions a
         WHERE a.service_id IN (SELECT service_id FROM %1$s y)', rows_rel)
    WHEN 'break_records' THEN finance_record_days_sql(rows_rel)
    WHEN 'breaks' THEN finance_record_days_sql(format(
      '(SELECT b.side, b.record_kind, b.record_ref FROM break_records b
        WHERE b.break_id IN (SELECT break_id FROM %s x))', rows_rel))
    WHEN 'break_workflow' THEN finance_record_days_sql(format(
      '(SELECT b.side, b.record_kind, b.record_ref FROM break_records b
        WHERE b.break_id IN (SELECT break_id COLLATE "C" FROM %s x))', rows_rel))
    -- A fee's gross leg is on its match's ledger entry's day: every member of the match.
    WHEN 'match_group_members' THEN finance_record_days_sql(format(
      '(SELECT side, record_kind, record_ref FROM %1$s x
        UNION ALL SELECT m.side, m.record_kind, m.record_ref FROM match_group_members m
        WHERE m.match_id IN (SELECT match_id FROM %1$s y))', rows_rel))
    WHEN 'match_groups' THEN finance_record_days_sql(format(
      '(SELECT m.side, m.record_kind, m.record_ref FROM match_group_members m
        WHERE m.match_id IN (SELECT match_id FROM %s x))', rows_rel))
    WHEN 'match_pairs' THEN finance_record_days_sql(format(
      '(SELECT ''provider''::text AS side, record_kind, record_ref FROM %1$s x
        UNION ALL SELECT ''ledger'', ''ledger_entry'', entry_id FROM %1$s y)', rows_rel))
  END
$f$;
--> statement-breakpoint
-- Statement triggers on every watched table: an insert's new rows, a delete's old rows, an
-- update's rows whose watched columns changed (old and new versions: the trigger's argument
-- lists those columns), each mapped to its days. A statement that changed no row (ON CONFLICT
-- DO NOTHING, a delete that met nothing, an update of other columns: a comment, an assignment)
-- writes nothing.
CREATE OR REPLACE FUNCTION finance_data_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  rows_rel text;
  days text;
  n bigint;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    INSERT INTO finance_changes (day) VALUES ('-infinity') ON CONFLICT DO NOTHING;
    RETURN NULL;
  END IF;
  rows_rel := CASE TG_OP
    WHEN 'INSERT' THEN 'new_rows'
    WHEN 'DELETE' THEN 'old_rows'
    ELSE format('((SELECT %1$s FROM old_rows EXCEPT ALL SELECT %1$s FROM new_rows)
      UNION ALL (SELECT %1$s FROM new_rows EXCEPT ALL SELECT %1$s FROM old_rows))', TG_ARGV[0])
  END;
  EXECUTE format('SELECT count(*) FROM (SELECT 1 FROM %s c LIMIT 10001) c', rows_rel) INTO n;
  IF n = 0 THEN
    RETURN NULL;
  END IF;
  days := finance_row_days_sql(TG_TABLE_NAME, rows_rel);
  -- Past 10,000 rows (a first match, a whole import) mapping each to its day costs more than
  -- the reader's computing every day again.
  IF n > 10000 OR days IS NULL THEN
    INSERT INTO finance_changes (day) VALUES ('-infinity') ON CONFLICT DO NOTHING;
  ELSE
    -- A record without a time has its lines on no day (NULL): every day is read again.
    EXECUTE format('INSERT INTO finance_changes (day) SELECT DISTINCT coalesce(d, ''-infinity'')
      FROM (%s) AS days(d) ON CONFLICT DO NOTHING', days);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- As in migration 0024, with update triggers that see the rows (a column list and transition
-- tables cannot go together: the function compares the watched columns instead).
CREATE OR REPLACE FUNCTION finance_watch_tables() RETURNS void LANGUAGE plpgsql AS $$
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
      string_agg(quote_ident(w.column_name), ', ' ORDER BY w.column_name)
    FROM finance_watched_columns() w GROUP BY w.table_name
  LOOP
    EXECUTE format('CREATE TRIGGER finance_data_insert AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION finance_data_changed()', t);
    EXECUTE format('CREATE TRIGGER finance_data_update AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION finance_data_changed(%L)', t, coalesce(columns, '*'));
    EXECUTE format('CREATE TRIGGER finance_data_delete AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION finance_data_changed()', t);
    EXECUTE format('CREATE TRIGGER finance_data_truncate AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION finance_data_changed()', t);
  END LOOP;
END $$;
--> statement-breakpoint
SELECT finance_watch_tables();
--> statement-breakpoint
DROP SEQUENCE finance_data_version;
--> statement-breakpoint
DROP FUNCTION finance_data_lock_key();
