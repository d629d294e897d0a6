// The cash leg of a card operation: its account postings (serviceId = operateRecordId). Postings
// that add up to the matched operation and its fees join its match group; a settled operation
// whose fetched postings differ from it, or a failed one whose postings do not net to zero, is a
// cash_leg_mismatch.
// A cash_leg_mismatch holds, as its records, what the postings moved beyond the operation and its
// fees, per operation and currency (record_kind cash_leg, ref <operateRecordId>:<currency>): the
// statement lines show the same differences (finance_cash_leg_differences, migration 0037), so
// the break's effect is in finance_break_effects and the bridge's provider total is what the
// account moved. provider_items leaves the postings out (the operation stands for them), so
// without these records the extra money was in no figure.
import { breakClass, classSql } from "../break-class";
import { matchPass } from "../match-pass";
import type { Statement } from "../statement";
import { insertBreakItems, insertMembers } from "../work-tables";
import { paired } from "./exact";

export const cashLeg: Statement = {
  name: "cash leg",
  text: insertMembers(
    [
      {
        row: {
          match_id: "e.match_id",
          pass: "'cash_leg'",
          status: "'confirmed'",
          side: "'cash'",
          record_kind: "'account_transaction'",
          record_ref: "a.acnt_txn_id",
          amount: "a.amount",
          currency: "a.currency",
        },
        from: `FROM expected e JOIN cash c ON c.service_id = e.operate_record_id AND c.amount = e.amount
          AND c.c1 = e.currency AND c.c2 = e.currency
        JOIN account_transactions a ON a.service_id = e.operate_record_id`,
      },
    ],
    // Without any operation the scan of run_records (a million rows) is skipped: the
    // uncorrelated EXISTS is evaluated once, before it (0.19 s of a 1M-record run without one).
    `live AS (
      SELECT x.item_ref AS crid, 'exact:card_operation:' || x.item_ref AS match_id
      FROM run_records x WHERE x.kind = 'card_operation' AND ${paired("x")}
        AND EXISTS (SELECT 1 FROM operate_records)
      UNION ALL
      SELECT m.record_ref, m.match_id FROM run_members m
      WHERE m.side = 'provider' AND m.record_kind = 'card_operation'
    ), expected AS (
      SELECT l.crid, l.match_id, o.operate_record_id, sum(p.amount) AS amount,
        min(p.currency) AS currency
      FROM live l JOIN operate_records o ON o.client_request_id = l.crid
      JOIN run_records p ON p.ref = l.crid AND p.parent_kind = 'card_operation'
        AND p.origin_ref = o.operate_record_id
      GROUP BY l.crid, l.match_id, o.operate_record_id
    ), cash AS (
      SELECT a.service_id, sum(a.amount) AS amount, min(a.currency) AS c1, max(a.currency) AS c2
      FROM account_transactions a
      WHERE a.service_id IN (SELECT operate_record_id FROM expected) GROUP BY a.service_id
    )`,
  ),
};

const cashLegMismatch = breakClass({
  name: "cash_leg_mismatch",
  priority: 2,
  meaning: "an operation's account postings do not sum to the operation and its fees",
});

const cashLegBreaks: Statement = {
  name: "cash leg breaks",
  text: insertBreakItems(
    {
      break_key: "'p:cash:' || ex.client_request_id",
      class: classSql(cashLegMismatch),
      status: "'open'",
      record_kind: "'card_operation'",
      provider_ref: "ex.client_request_id",
      currency: "ex.currency",
      amount: "abs(ex.amount - coalesce(ex.cash_amount, 0))",
      provider_amount: "ex.amount",
      detail: `format('operation %s (%s): account postings sum to %s, the operation and its fees to %s',
        ex.client_request_id, ex.status, coalesce(ex.cash_amount, 0), ex.amount)`,
      occurred_at: "ex.operate_time",
      side: "'provider'",
      item_kind: "'cash_leg'",
      item_ref: "d.operate_record_id || ':' || d.currency",
      item_amount: "d.difference",
      item_currency: "d.currency",
      main_item: "d.operate_record_id = ex.operate_record_id",
    },
    // The break is the clientRequestId's (its key); where it names several operations (a
    // retry) whose postings differ, the latest (the highest operateRecordId) is the one shown,
    // and the differences of every fetched operation of the clientRequestId are its records
    // (each is a statement line, which the break explains).
    `FROM (SELECT DISTINCT ON (ex.client_request_id) ex.*, c.amount AS cash_amount
      FROM ex JOIN service_ids s ON s.service_id = ex.operate_record_id AND s.fetched_at IS NOT NULL
      LEFT JOIN cash c ON c.service_id = ex.operate_record_id
      WHERE ex.amount <> coalesce(c.amount, 0)
      ORDER BY ex.client_request_id, ex.operate_record_id DESC) ex
    JOIN diff d ON d.client_request_id = ex.client_request_id`,
    `ex AS (
      SELECT o.operate_record_id, o.client_request_id, o.status, o.operate_time,
        coalesce(sum(p.amount) FILTER (WHERE o.status = 'S'), 0) AS amount,
        coalesce(min(p.currency), min(o.currency)) AS currency
      FROM operate_records o
      -- Each operation with its own items (origin_ref: the operateRecordId), not those of
      -- another operation under the same clientRequestId.
      LEFT JOIN run_records p ON p.ref = o.client_request_id AND p.parent_kind = 'card_operation'
        AND p.origin_ref = o.operate_record_id
      WHERE o.status IN ('S', 'F')
      GROUP BY o.operate_record_id, o.client_request_id, o.status, o.operate_time
    ), cash AS (
      SELECT service_id, sum(amount) AS amount FROM account_transactions
      WHERE service_id IN (SELECT operate_record_id FROM ex) GROUP BY service_id
    ), diff AS (
      -- Per fetched operation and currency: postings - the operation and its fees, where not
      -- zero (a failed operation has no items: its postings are the difference).
      SELECT x.operate_record_id, x.client_request_id, l.currency, sum(l.amount) AS difference
      FROM ex x JOIN service_ids s ON s.service_id = x.operate_record_id AND s.fetched_at IS NOT NULL
      JOIN (
        SELECT p.origin_ref AS operate_record_id, p.currency, -p.amount AS amount
        FROM run_records p JOIN ex o ON o.client_request_id = p.ref
          AND o.operate_record_id = p.origin_ref AND o.status = 'S'
        WHERE p.parent_kind = 'card_operation'
        UNION ALL
        SELECT a.service_id, a.currency, a.amount FROM account_transactions a
        WHERE a.service_id IN (SELECT operate_record_id FROM ex)
      ) l ON l.operate_record_id = x.operate_record_id
      GROUP BY x.operate_record_id, x.client_request_id, l.currency
      HAVING sum(l.amount) <> 0
    )`,
  ),
};

export const cashLegMismatchPass = matchPass([cashLegMismatch], () => [cashLegBreaks]);
