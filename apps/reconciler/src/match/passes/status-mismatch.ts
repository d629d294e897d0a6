// Booked, but the provider has the record failed (F), or still processing (P) past the pending
// grace (inside it the break is pending): status_mismatch on the entry.
import { breakClass, classSql } from "../break-class";
import type { ResolvedMatchOptions } from "../match-options";
import { matchPass } from "../match-pass";
import { literals, type Statement } from "../statement";
import { entryAsItem, insertBreakItems, openLedger } from "../work-tables";

const statusMismatch = breakClass({
  name: "status_mismatch",
  priority: 1,
  meaning: "the ledger books a record the provider has failed, or still processing past the grace",
  grace: (v) => v.pendingGrace,
});

function statusMismatchStatement(o: ResolvedMatchOptions): Statement {
  const v = literals(o);
  return {
    name: "status",
    text: insertBreakItems(
      {
        break_key: "'l:' || x.entry_id",
        class: classSql(statusMismatch),
        status: `CASE WHEN x.status = 'P' AND x.at > ${v.asOf} - ${statusMismatch.grace(v)} THEN 'pending' ELSE 'open' END`,
        record_kind: "x.kind",
        provider_ref: "x.ref",
        entry_id: "x.entry_id",
        currency: "x.currency",
        amount: "abs(x.amount)",
        ledger_amount: "x.amount",
        detail: `format('entry %s books %s %s, which the provider has %s', x.entry_id, lower(x.type), x.ref,
          CASE x.status WHEN 'F' THEN 'failed (F)' ELSE 'still processing (P)' END)`,
        occurred_at: "coalesce(x.at, x.booked_at)",
        ...entryAsItem("x"),
      },
      // One record per entry: a clientRequestId can name several operations (a retry); the
      // latest (the highest operateRecordId) answers, so the pick never follows row order.
      `FROM (SELECT DISTINCT ON (entry_id) * FROM rec WHERE status IN ('F', 'P')
        ORDER BY entry_id, kind, rec_id DESC) x`,
      // Only the first entry on a key answers the status question: a second one on the same
      // record is a duplicate whatever the provider's status (duplicates.ts).
      `l AS (
        SELECT l.* FROM (SELECT l.*, row_number() OVER (PARTITION BY l.kind, l.ref, l.fee_type
            ORDER BY l.entry_id) AS key_rank FROM ledger_leftovers l) l
        WHERE l.key_rank = 1 AND l.kind IN ('card_transaction', 'card_operation', 'fee')
          AND ${openLedger("l")}
      ), rec AS (
        SELECT l.entry_id, l.ref, l.amount, l.currency, l.booked_at, t.txn_status AS status,
          t.txn_type AS type, t.transaction_time AS at, 'card_transaction' AS kind,
          t.txn_order_no AS rec_id
        FROM l JOIN card_transactions t ON t.txn_order_no = l.ref
        WHERE l.kind IN ('card_transaction', 'fee')
        UNION ALL
        SELECT l.entry_id, l.ref, l.amount, l.currency, l.booked_at, o.status, o.type, o.operate_time,
          'card_operation', o.operate_record_id
        FROM l JOIN operate_records o ON o.client_request_id = l.ref
        WHERE l.kind IN ('card_operation', 'fee')
      )`,
    ),
  };
}

export const statusMismatchPass = matchPass([statusMismatch], (o) => [statusMismatchStatement(o)]);
