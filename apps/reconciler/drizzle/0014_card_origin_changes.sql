-- The keys a card record names (its authorization: origin_txn_order_no; the clearing it refunds:
-- origin_txn_order_no_for_refund) join an incremental run's scope through the record's current
-- row. A deleted record has none, and an updated one names its new keys only: the record it
-- named before (an authorization whose hold the deleted clearing used, an entry on it that was
-- a duplicate of the clearing's) would keep a result that depended on the record. The keys a
-- record stops naming are logged as changed keys, read from the old rows: all of them on
-- DELETE, on UPDATE only where the row no longer names them (a status change logs nothing
-- more). New rows' keys are not logged: the scope reaches them from the record itself.
CREATE FUNCTION match_changes_log_card_origins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO match_changes (kind, ref)
    SELECT DISTINCT 'key', v.k FROM old_rows o
      CROSS JOIN LATERAL (VALUES (o.origin_txn_order_no), (o.origin_txn_order_no_for_refund)) v(k)
    WHERE v.k IS NOT NULL;
  ELSE
    INSERT INTO match_changes (kind, ref)
    SELECT DISTINCT 'key', v.k FROM old_rows o
      CROSS JOIN LATERAL (VALUES (o.origin_txn_order_no), (o.origin_txn_order_no_for_refund)) v(k)
    WHERE v.k IS NOT NULL AND NOT EXISTS (SELECT 1 FROM new_rows n
      WHERE n.txn_order_no = o.txn_order_no
        AND v.k IN (n.origin_txn_order_no, n.origin_txn_order_no_for_refund));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER card_transactions_origins_updated AFTER UPDATE ON card_transactions
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION match_changes_log_card_origins();
--> statement-breakpoint
CREATE TRIGGER card_transactions_origins_deleted AFTER DELETE ON card_transactions
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION match_changes_log_card_origins();
