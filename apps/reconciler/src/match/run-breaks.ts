// The run's breaks, one row each, from the rows of their items: the id is the hash of the
// break's key (stable across runs), and the break's own columns come from its main item's row.
import { BREAK_PRIORITY } from "./break-classes";
import type { Statement } from "./statement";

/** Priority of a class as a SQL CASE over `class`. */
export const PRIORITY_SQL = `CASE class ${Object.entries(BREAK_PRIORITY)
  .map(([cls, p]) => `WHEN '${cls}' THEN ${p}`)
  .join(" ")} ELSE 3 END`;

export const runBreaks: Statement = {
  name: "breaks of the run",
  text: `CREATE TEMP TABLE run_breaks ON COMMIT DROP AS
    SELECT DISTINCT ON (break_key) substr(md5(break_key), 1, 16) AS break_id, break_key, class,
      ${PRIORITY_SQL} AS priority, status, record_kind, provider_ref, entry_id, currency, amount,
      provider_amount, ledger_amount, detail, occurred_at
    FROM run_break_items ORDER BY break_key, main_item DESC, side, item_ref`,
};
