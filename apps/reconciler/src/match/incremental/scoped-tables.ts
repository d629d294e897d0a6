// An incremental run's input: the records of the scope, copied into temporary tables named like
// the tables they come from. Postgres looks a name up in the session's temporary schema first,
// so the passes — unchanged, one text for both kinds of run — read the scope's records where a
// full run reads all of them. provider_items, a view, is recreated as a temporary view from its
// own definition (read before the copies exist, so it names the tables unqualified and binds to
// the copies). The copies are dropped at commit; nothing else in the transaction reads the
// provider tables or the ledger by these names once they exist.
import type { Statement } from "../statement";

const KEYS = "(SELECT k FROM scope_keys)";

/** The copies, from the tables of `schema` (where the real ones live). */
export function scopedTables(schema: string, providerItemsView: string): Statement[] {
  const from = (table: string) => `${schema}.${table}`;
  const copy = (table: string, where: string): Statement => ({
    name: `scope copy: ${table}`,
    text: `CREATE TEMP TABLE ${table} ON COMMIT DROP AS SELECT * FROM ${from(table)} WHERE ${where}`,
  });
  return [
    copy("card_transactions", `txn_order_no IN ${KEYS}`),
    copy("operate_records", `operate_record_id IN ${KEYS} OR client_request_id IN ${KEYS}`),
    copy(
      "operate_record_fees",
      "operate_record_id IN (SELECT operate_record_id FROM pg_temp.operate_records)",
    ),
    copy("account_transactions", `service_id IN ${KEYS}`),
    copy("service_ids", `service_id IN ${KEYS}`),
    copy("ledger_entries", "entry_id IN (SELECT entry_id FROM scope_entries)"),
    {
      name: "scope copy: provider_items",
      text: `CREATE TEMP VIEW provider_items AS ${providerItemsView}`,
    },
    {
      name: "scope copy: analyze",
      text: "ANALYZE card_transactions, operate_records, operate_record_fees, account_transactions, service_ids, ledger_entries",
    },
  ];
}

/** Reads the schema of the real tables and provider_items' definition (before any copy). */
export const VIEW_DEFINITION = `SELECT current_schema() AS schema,
  pg_get_viewdef(to_regclass('provider_items'), true) AS definition`;
