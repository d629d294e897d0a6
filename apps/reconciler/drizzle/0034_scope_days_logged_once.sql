-- An incremental match run writes the results of its scope only, and every record those
-- results name is in the scope's temporary copies. It logs the days of those records once
-- (finance_log_scope_days) and, while it writes its results, sets merchantkit.finance_days_logged
-- so that each write's trigger does not map the written pairs, members and breaks to the same
-- days again row by row. The setting is SET LOCAL for those statements only (match/run-match.ts).
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
  IF current_setting('merchantkit.finance_days_logged', true) = 'on' THEN
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
-- The days of every record in an incremental run's copies (pg_temp: the scope's card records,
-- entries, operations with their fees and account postings), as the triggers of those tables
-- would log them: every day the run's writes can move a line of.
CREATE FUNCTION finance_log_scope_days() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('INSERT INTO finance_changes (day) SELECT DISTINCT coalesce(d, ''-infinity'')
      FROM (%s UNION %s UNION %s UNION %s) AS days(d) ON CONFLICT DO NOTHING',
    finance_row_days_sql('card_transactions', 'pg_temp.card_transactions'),
    finance_row_days_sql('ledger_entries', 'pg_temp.ledger_entries'),
    finance_row_days_sql('operate_records', 'pg_temp.operate_records'),
    finance_row_days_sql('account_transactions', 'pg_temp.account_transactions'));
END $$;
