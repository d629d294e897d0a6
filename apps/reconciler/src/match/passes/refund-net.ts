// Booking style "clearing net of its refunds": one ledger entry on a clearing books it together
// with its refunds (originTxnOrderNoForRefund). The clearing and refunds adding up to the entry
// are one match group. An entry off from that total, but nearer to it than to the bare
// clearing, was written for the net: one amount_mismatch of the difference against the clearing
// and its refunds (not a mismatch against the clearing plus the refunds as unbooked).
// A refund with an entry of its own (kind card_transaction, no fee type, on the refund's key,
// whatever its amount or currency) is booked on its own, not in its clearing's net: it is
// compared with that entry (key-mismatch.ts), and the clearing's entry with the clearing and
// its other refunds. Only entries left over by the exact pass are looked at: an entry that
// books a refund exactly pairs with it there, and the refund is then no leftover at all.
import type { Statement } from "../statement";
import { openLedger, openProvider } from "../work-tables";
import { compositeRule } from "./composites";

/** Entries on a clearing with refunds (cand), and the clearing and its refunds (items). */
const netCandidates = `cand AS (
    SELECT l.entry_id, l.ref, l.amount, l.currency,
      row_number() OVER (PARTITION BY l.ref ORDER BY l.entry_id) AS rn
    FROM ledger_leftovers l JOIN provider_leftovers c ON c.kind = 'card_transaction' AND c.item_ref = l.ref
      AND c.record_type = 'CLEARING'
    WHERE l.kind = 'card_transaction' AND ${openLedger("l")} AND ${openProvider("c")}
  ), items AS (
    SELECT CASE WHEN p.record_type = 'REFUND' THEN p.refund_of ELSE p.item_ref END AS root, p.*
    FROM provider_leftovers p
    WHERE p.kind = 'card_transaction' AND ${openProvider("p")}
      AND (p.item_ref IN (SELECT ref FROM cand WHERE rn = 1)
        OR (p.record_type = 'REFUND' AND p.refund_of IN (SELECT ref FROM cand WHERE rn = 1)
          -- A refund booked on its own key is not part of the net.
          AND NOT EXISTS (SELECT 1 FROM ledger_leftovers o WHERE o.kind = 'card_transaction'
            AND o.fee_type = '' AND o.ref = p.ref)))
  )`;

const rule = compositeRule({
  name: "refund chain",
  pass: "chain",
  prefix: "net",
  recordKind: "card_transaction",
  candidates: netCandidates,
  groupBy: "root",
  bareItem: "record_type = 'CLEARING'",
  timeOf: "record_type = 'CLEARING'",
  itemsOf: (a) => `i.root = ${a}.ref`,
  detail: `format('clearing %s net of its refunds is %s %s, the ledger books %s %s (entry %s)',
    x.ref, x.pa, x.pc, x.la, x.lc, x.entry_id)`,
});

export const refundNet: Statement = rule.match;
export const refundNetMismatch: Statement = rule.mismatch;
