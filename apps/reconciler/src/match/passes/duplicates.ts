// An entry whose key is already booked and matched (or in a break) through another entry:
// duplicate_in_ledger on the second entry.
import { breakClass, classSql } from "../break-class";
import { matchPass } from "../match-pass";
import type { Statement } from "../statement";
import { entryAsItem, insertBreakItems, openLedger } from "../work-tables";

const duplicateInLedger = breakClass({
  name: "duplicate_in_ledger",
  priority: 2,
  meaning: "a second entry books a provider record another entry already books",
});

const duplicates: Statement = {
  name: "duplicates",
  text: insertBreakItems(
    {
      break_key: "'l:' || l.entry_id",
      class: classSql(duplicateInLedger),
      status: "'open'",
      record_kind: "l.kind",
      provider_ref: "l.ref",
      entry_id: "l.entry_id",
      currency: "l.currency",
      amount: "abs(l.amount)",
      ledger_amount: "l.amount",
      detail: `format('entry %s books %s %s a second time', l.entry_id, replace(l.kind, '_', ' '), l.ref)`,
      occurred_at: "l.booked_at",
      ...entryAsItem("l"),
    },
    "FROM l WHERE l.entry_id IN (SELECT entry_id FROM known)",
    `l AS (SELECT l.* FROM ledger_leftovers l WHERE ${openLedger("l")}),
    -- The provider items whose key or origin a leftover entry names: one scan of run_records
    -- (a million rows) against the few leftovers' refs (two hashed sets), cheaper than a hash
    -- join of run_records per question below.
    hits AS MATERIALIZED (
      SELECT p.kind, p.ref, p.fee_type, p.origin_ref, p.record_type, p.entity FROM run_records p
      WHERE p.item_ref IS NOT NULL AND (p.ref IN (SELECT ref FROM ledger_leftovers)
        OR p.origin_ref IN (SELECT ref FROM ledger_leftovers))
    ),
    known AS (
      SELECT l.entry_id FROM ledger_leftovers l JOIN hits p ON p.kind = l.kind AND p.ref = l.ref
        AND p.fee_type = l.fee_type AND p.entity = l.entity
      UNION
      -- An entry on an authorization whose clearings are provider items. (Not looked up in
      -- card_transactions: on PGlite, which never analyses it, the planner loops over it.)
      SELECT l.entry_id FROM ledger_leftovers l JOIN hits p ON p.origin_ref = l.ref
        AND p.kind = 'card_transaction' AND p.record_type = 'CLEARING'
      WHERE l.kind = 'card_transaction'
      UNION
      -- A later entry on a record the provider holds, whatever its status (the authorization of
      -- a pending chain included): the first entry on the key answers for the record.
      SELECT d.entry_id FROM (SELECT l.entry_id, l.kind, l.ref, row_number() OVER (
          PARTITION BY l.kind, l.ref, l.fee_type ORDER BY l.entry_id) AS key_rank
        FROM ledger_leftovers l WHERE l.kind IN ('card_transaction', 'card_operation')) d
      WHERE d.key_rank > 1 AND (
        (d.kind = 'card_transaction'
          AND EXISTS (SELECT 1 FROM card_transactions t WHERE t.txn_order_no = d.ref))
        OR (d.kind = 'card_operation'
          AND EXISTS (SELECT 1 FROM operate_records o WHERE o.client_request_id = d.ref)))
    )`,
  ),
};

export const duplicatesPass = matchPass([duplicateInLedger], () => [duplicates]);
