// Booked against a settled provider record that moves no money (a reversal, a verification, a
// freeze...): the provider's amount is zero, so the entry's whole amount is an amount_mismatch.
import { classSql } from "../break-class";
import type { Statement } from "../statement";
import { entryAsItem, insertBreakItems, openLedger } from "../work-tables";
import { amountMismatch } from "./key-mismatch";

export const noMoney: Statement = {
  name: "no money",
  text: insertBreakItems(
    {
      break_key: "'l:' || x.entry_id",
      class: classSql(amountMismatch),
      status: "'open'",
      record_kind: "x.kind",
      provider_ref: "x.ref",
      entry_id: "x.entry_id",
      currency: "x.currency",
      amount: "abs(x.amount)",
      provider_amount: "0",
      ledger_amount: "x.amount",
      detail: `format('entry %s books %s %s, %s %s that moves no money', x.entry_id, x.amount, x.currency,
        CASE WHEN x.type ~* '^[aeiou]' THEN 'an' ELSE 'a' END, lower(x.type))`,
      occurred_at: "coalesce(x.at, x.booked_at)",
      ...entryAsItem("x"),
    },
    // One record per entry: a clientRequestId can name several operations (a retry); the
    // latest (the highest operateRecordId) answers, so the pick never follows row order.
    "FROM (SELECT DISTINCT ON (entry_id) * FROM rec ORDER BY entry_id, rec_id DESC) x",
    `l AS (SELECT l.* FROM ledger_leftovers l WHERE l.kind IN ('card_transaction', 'card_operation') AND ${openLedger("l")}),
    rec AS (
      SELECT l.*, t.txn_type AS type, t.transaction_time AS at, t.txn_order_no AS rec_id FROM l
      JOIN card_transactions t ON t.txn_order_no = l.ref AND t.txn_status = 'S'
      WHERE l.kind = 'card_transaction'
      UNION ALL
      SELECT l.*, o.type, o.operate_time, o.operate_record_id FROM l
      JOIN operate_records o ON o.client_request_id = l.ref AND o.status = 'S'
      WHERE l.kind = 'card_operation'
    )`,
  ),
};
