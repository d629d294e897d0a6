// Booking style "operation gross of its fees": one ledger entry books a card operation together
// with its fees (and no fee lines of its own). The operation and fees adding up to the entry are
// one match group. An entry off from that total, but nearer to it than to the bare operation,
// was written gross: one amount_mismatch of the difference against the operation and its fees.
import type { Statement } from "../statement";
import { openLedger, openProvider } from "../work-tables";
import { compositeRule } from "./composites";

/** Entries on an operation with no fee lines (cand), and the operation and its fees (items). */
const grossCandidates = `cand AS (
    SELECT l.entry_id, l.ref, l.amount, l.currency,
      row_number() OVER (PARTITION BY l.ref ORDER BY l.entry_id) AS rn
    FROM ledger_leftovers l JOIN provider_leftovers op ON op.kind = 'card_operation' AND op.item_ref = l.ref
    WHERE l.kind = 'card_operation' AND ${openLedger("l")} AND ${openProvider("op")}
      AND NOT EXISTS (SELECT 1 FROM run_records f WHERE f.entry_id IS NOT NULL AND f.kind = 'fee'
        AND f.ref = l.ref)
      AND NOT EXISTS (SELECT 1 FROM ledger_leftovers f WHERE f.kind = 'fee' AND f.ref = l.ref)
  ), items AS (
    SELECT p.* FROM provider_leftovers p
    WHERE p.ref IN (SELECT ref FROM cand WHERE rn = 1) AND p.parent_kind = 'card_operation'
      AND p.kind IN ('card_operation', 'fee') AND ${openProvider("p")}
  )`;

const rule = compositeRule({
  name: "operation gross",
  pass: "operation_gross",
  prefix: "gross",
  recordKind: "card_operation",
  candidates: grossCandidates,
  groupBy: "ref",
  bareItem: "kind = 'card_operation'",
  itemsOf: (a) => `i.ref = ${a}.ref`,
  detail: `format('operation %s with its fees is %s %s, the ledger books %s %s (entry %s)',
    x.ref, x.pa, x.pc, x.la, x.lc, x.entry_id)`,
});

export const operationGross: Statement = rule.match;
export const operationGrossMismatch: Statement = rule.mismatch;
