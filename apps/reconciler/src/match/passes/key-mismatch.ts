// Booking style "per record", wrong amount: an entry with a provider item's key whose amount or
// currency differs. A break, never a match: amount_mismatch, currency_mismatch, or fee_mismatch
// for a fee line.
import type { Statement } from "../statement";
import { insertBreakItems, itemOf, openLedger, openProvider } from "../work-tables";

export const keyMismatch: Statement = {
  name: "key mismatch",
  text: insertBreakItems(
    {
      break_key: "'p:' || x.kind || ':' || x.item_ref",
      class: "x.class",
      status: "'open'",
      record_kind: "x.kind",
      provider_ref: "x.ref",
      entry_id: "x.entry_id",
      currency: "x.pc",
      amount: "CASE WHEN x.pc = x.lc THEN abs(x.pa - x.la) ELSE abs(x.la) END",
      provider_amount: "x.pa",
      ledger_amount: "x.la",
      detail: `format('%s %s%s: provider %s %s, ledger %s %s (entry %s)', replace(x.kind, '_', ' '), x.ref,
        CASE WHEN x.fee_type <> '' THEN ' ' || x.fee_type ELSE '' END, x.pa, x.pc, x.la, x.lc, x.entry_id)`,
      occurred_at: "x.occurred_at",
      ...itemOf("r"),
    },
    `FROM pairs x CROSS JOIN LATERAL (VALUES
      ('provider', x.kind, x.item_ref, x.pa, x.pc, true),
      ('ledger', 'ledger_entry', x.entry_id, x.la, x.lc, false)
    ) AS r(side, kind, ref, amount, currency, main)`,
    `l AS (
      SELECT l.*, row_number() OVER (PARTITION BY l.kind, l.ref, l.fee_type ORDER BY l.entry_id) AS rn
      FROM ledger_leftovers l WHERE ${openLedger("l")}
    ), p AS (
      SELECT p.*, row_number() OVER (PARTITION BY p.kind, p.ref, p.fee_type ORDER BY p.currency, p.item_ref) AS rn
      FROM provider_leftovers p WHERE ${openProvider("p")}
    ), pairs AS (
      SELECT p.kind, p.item_ref, p.ref, p.fee_type, p.amount AS pa, p.currency AS pc, p.occurred_at,
        l.entry_id, l.amount AS la, l.currency AS lc,
        CASE WHEN p.kind = 'fee' THEN 'fee_mismatch'
          WHEN p.currency <> l.currency THEN 'currency_mismatch' ELSE 'amount_mismatch' END AS class
      FROM p JOIN l ON l.kind = p.kind AND l.ref = p.ref AND l.fee_type = p.fee_type AND l.rn = p.rn
    )`,
  ),
};
