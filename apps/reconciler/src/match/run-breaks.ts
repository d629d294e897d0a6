// The run's breaks, one row each, from the rows of their items: the id is the hash of the
// break's key (stable across runs), and the break's own columns come from its main item's row.
// A break key's main row is the first by main item, side and item; every column a break takes
// ends the order, so rows that still tie (two items of one key: two operations under one
// clientRequestId) give the same break in an incremental run as in a full one, not row order.
import type { BreakClassDescriptor } from "./break-class";

/**
 * A break's entity (alias b: its main row): its ledger entry's, else its account item's (an
 * account item is one entity's, and a break never mixes entities: the passes pair within one),
 * else the merchant's own (''): card records and operations are the merchant's.
 */
const BREAK_ENTITY = `coalesce(
      (SELECT e.entity FROM ledger_entries e
        WHERE e.entry_id = coalesce(b.entry_id, CASE WHEN b.side = 'ledger' THEN b.item_ref END)),
      CASE WHEN b.record_kind = 'account' THEN (SELECT min(a.entity) FROM account_transactions a
        WHERE a.service_id = b.provider_ref) END,
      '')`;

import type { Statement } from "./statement";

/** The run's breaks, each with the priority of its class (`classes`: every declared class). */
export const runBreaks = (classes: readonly BreakClassDescriptor[]): Statement => ({
  name: "breaks of the run",
  text: `CREATE TEMP TABLE run_breaks ON COMMIT DROP AS
    SELECT b.break_id, b.break_key, b.class, b.priority, b.status, b.record_kind, b.provider_ref,
      b.entry_id, b.currency, b.amount, b.provider_amount, b.ledger_amount, b.detail, b.occurred_at,
      ${BREAK_ENTITY} AS entity
    FROM (SELECT DISTINCT ON (break_key) substr(md5(break_key), 1, 16) AS break_id, break_key, class,
      CASE class ${classes.map((c) => `WHEN '${c.name}' THEN ${c.priority}`).join(" ")} END AS priority, status, record_kind, provider_ref, entry_id, currency, amount,
      provider_amount, ledger_amount, detail, occurred_at, side, item_ref
    FROM run_break_items ORDER BY break_key, main_item DESC, side, item_ref,
      detail, amount, occurred_at, currency, provider_amount, ledger_amount, status, class, entry_id) b`,
});
