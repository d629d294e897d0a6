// The run's breaks, one row each, from the rows of their items: the id is the hash of the
// break's key (stable across runs), and the break's own columns come from its main item's row.
// A break key's main row is the first by main item, side and item; every column a break takes
// ends the order, so rows that still tie (two items of one key: two operations under one
// clientRequestId) give the same break in an incremental run as in a full one, not row order.
import type { BreakClassDescriptor } from "./break-class";
import type { Statement } from "./statement";

/** The run's breaks, each with the priority of its class (`classes`: every declared class). */
export const runBreaks = (classes: readonly BreakClassDescriptor[]): Statement => ({
  name: "breaks of the run",
  text: `CREATE TEMP TABLE run_breaks ON COMMIT DROP AS
    SELECT DISTINCT ON (break_key) substr(md5(break_key), 1, 16) AS break_id, break_key, class,
      CASE class ${classes.map((c) => `WHEN '${c.name}' THEN ${c.priority}`).join(" ")} END AS priority, status, record_kind, provider_ref, entry_id, currency, amount,
      provider_amount, ledger_amount, detail, occurred_at
    FROM run_break_items ORDER BY break_key, main_item DESC, side, item_ref,
      detail, amount, occurred_at, currency, provider_amount, ledger_amount, status, class, entry_id`,
});
