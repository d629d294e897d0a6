// Which of the tables a match run reads records from hold any row. The scope's lookups probe a
// table once per frontier row, and its copies once per scope key: a table with no row (a
// merchant who issues cards but makes no card operations has no operate_records, fees, account
// postings or serviceIds) can find nothing, so its lookups are left out and its copy is made
// empty. A row written after this check is not in the changes the run took either: it stays
// in the log for the next run.
import type { Db } from "../../db/database";
import { queryText } from "../../db/query-rows";

export const SOURCE_TABLES = [
  "card_transactions",
  "operate_records",
  "operate_record_fees",
  "account_transactions",
  "service_ids",
  "ledger_entries",
] as const;

export type SourceTable = (typeof SOURCE_TABLES)[number];

/** The source tables that hold at least one row. */
export async function sourceTables(tx: Db): Promise<ReadonlySet<SourceTable>> {
  const rows = await queryText<{ t: SourceTable }>(
    tx,
    SOURCE_TABLES.map((t) => `SELECT '${t}' AS t WHERE EXISTS (SELECT 1 FROM ${t})`).join(
      "\n    UNION ALL ",
    ),
  );
  return new Set(rows.map((r) => r.t));
}
