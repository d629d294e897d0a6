// Refunds and reversals without their original: a refund booked while the clearing it gives
// back is not (one break on the refund, the clearing and its fees as items), and a refund or
// reversal whose original the provider data does not hold. Both orphan_refund_or_reversal.
import { breakClass, classSql } from "../break-class";
import { matchPass } from "../match-pass";
import type { Statement } from "../statement";
import { insertBreakItems, openProvider } from "../work-tables";

const orphanRefundOrReversal = breakClass({
  name: "orphan_refund_or_reversal",
  priority: 2,
  meaning: "a refund or reversal whose original is not booked, or not held by the provider",
});

const orphanRefunds: Statement = {
  name: "orphan refunds",
  text: insertBreakItems(
    {
      break_key: "'p:orphan:' || c.refund",
      class: classSql(orphanRefundOrReversal),
      status: "'open'",
      record_kind: "'card_transaction'",
      provider_ref: "c.refund",
      currency: "c.currency",
      // The clearing's money as the statement explains it: with its fees in its currency.
      amount: "abs(c.amount + c.fees)",
      provider_amount: "c.amount + c.fees",
      detail: `format('refund %s is booked, but the clearing it gives back (%s, %s %s%s) is not', c.refund,
        c.item_ref, c.amount, c.currency,
        CASE WHEN c.fees <> 0 THEN format(', fees %s, together %s', c.fees, c.amount + c.fees) ELSE '' END)`,
      // The break is shown on the refund (provider_ref): its time, not the clearing's.
      occurred_at: "c.refund_at",
      side: "'provider'",
      item_kind: "r.kind",
      item_ref: "r.item_ref",
      item_amount: "r.amount",
      item_currency: "r.currency",
      main_item: "r.main",
    },
    "FROM c JOIN recs r ON r.owner = c.item_ref",
    `open_clearings AS (
      SELECT p.* FROM provider_leftovers p
      WHERE p.kind = 'card_transaction' AND p.record_type = 'CLEARING' AND ${openProvider("p")}
    ), booked_refunds AS (
      -- Refunds of those clearings matched exactly (paired in run_records) or in a chain.
      SELECT r.refund_of, min(r.item_ref) AS refund FROM run_records r
      WHERE r.kind = 'card_transaction' AND r.record_type = 'REFUND'
        AND r.refund_of IN (SELECT item_ref FROM open_clearings)
        AND (r.entry_id IS NOT NULL OR r.item_ref IN (SELECT record_ref FROM run_members
          WHERE side = 'provider' AND record_kind = 'card_transaction'))
      GROUP BY r.refund_of
    ), fees AS (
      SELECT p.item_ref AS owner, f.kind, f.item_ref, f.amount, f.currency FROM open_clearings p
      JOIN provider_leftovers f ON f.kind = 'fee' AND f.ref = p.item_ref AND f.parent_kind = 'card_transaction'
      WHERE ${openProvider("f")}
    ), c AS (
      -- run_records keeps no time for a matched record: the refund's own, by its key.
      SELECT p.*, b.refund, (SELECT coalesce(t.settle_time, t.transaction_time)
          FROM card_transactions t WHERE t.txn_order_no = b.refund) AS refund_at,
        coalesce((SELECT sum(f.amount) FROM fees f WHERE f.owner = p.item_ref
          AND f.currency = p.currency), 0) AS fees
      FROM open_clearings p JOIN booked_refunds b ON b.refund_of = p.item_ref
    ), recs AS (
      SELECT c.item_ref AS owner, c.kind, c.item_ref, c.amount, c.currency, true AS main FROM c
      UNION ALL
      SELECT f.owner, f.kind, f.item_ref, f.amount, f.currency, false FROM fees f
      WHERE f.owner IN (SELECT item_ref FROM c)
    )`,
  ),
};

export const orphansAtProvider: Statement = {
  name: "orphans at provider",
  text: insertBreakItems(
    {
      break_key: "'p:orphan:' || t.txn_order_no",
      class: classSql(orphanRefundOrReversal),
      status: "'open'",
      record_kind: "'card_transaction'",
      provider_ref: "t.txn_order_no",
      currency: "coalesce(t.settle_currency, t.card_currency)",
      amount: "coalesce(t.settle_amount, t.card_amount, 0)",
      provider_amount: "coalesce(t.settle_amount, t.card_amount)",
      detail: `format('%s %s names %s, which the provider data does not hold', lower(t.txn_type),
        t.txn_order_no, coalesce(t.origin_txn_order_no_for_refund, t.origin_txn_order_no, 'no original'))`,
      occurred_at: "t.transaction_time",
      main_item: "true",
    },
    // One index probe per refund or reversal (OFFSET 0 keeps the NOT EXISTS a probe): as an
    // anti-join, Postgres 15 hashes the inner side, every card record, to look up the few
    // (0.4 s of a 1M-record run). The scope's copy has the same index (scoped-tables.ts).
    `FROM card_transactions t
    WHERE t.txn_type IN ('REFUND', 'REVERSAL') AND t.txn_status = 'S'
      AND NOT EXISTS (SELECT 1 FROM card_transactions o WHERE o.txn_order_no =
        CASE WHEN t.txn_type = 'REFUND' THEN coalesce(t.origin_txn_order_no_for_refund, t.origin_txn_order_no)
          ELSE t.origin_txn_order_no END OFFSET 0)`,
  ),
};

export const orphanRefundsPass = matchPass([orphanRefundOrReversal], () => [orphanRefunds]);
