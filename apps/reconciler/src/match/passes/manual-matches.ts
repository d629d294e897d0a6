// Finance's manual matches (manual_matches, written by workflow/manual-match.ts), applied by
// every run, full or incremental, right after the rule-based matches (exact pairs, chains, net
// refunds, gross operations, cash legs): a person matched records that none of those paired, so
// no break pass takes them. A manual match holds, as one match group (pass 'manual', status
// confirmed), while every record it holds is still left by those passes with the amount and
// currency it was matched with; otherwise none of its records is taken, they become whatever
// breaks they would be without it, and the run lapses it (workflow/manual-match.ts
// lapseManualMatches). Its records are one group, so an incremental run that touches one of
// them takes them all (incremental/scope.ts: a stored group and every record it holds).
import type { Statement } from "../statement";
import { insertMembers, openLedger, openProvider } from "../work-tables";

/** The prefix of a manual match's group id: `manual:<manual_matches.id>`. */
const MANUAL_MATCH_PREFIX = "manual:";

export const manualMatchesPass: Statement = {
  name: "manual matches",
  text: insertMembers(
    [
      {
        row: {
          match_id: `'${MANUAL_MATCH_PREFIX}' || f.match_id`,
          pass: "'manual'",
          status: "'confirmed'",
          side: "f.side",
          record_kind: "f.record_kind",
          record_ref: "f.record_ref",
          amount: "f.amount",
          currency: "f.currency",
        },
        from: `FROM (SELECT DISTINCT match_id, side, record_kind, record_ref, amount, currency
            FROM found) f
          WHERE f.match_id IN (SELECT match_id FROM found GROUP BY match_id HAVING bool_and(open))`,
      },
    ],
    // The stored refs are compared in "C", the collation of the run's refs.
    `manual AS (
      SELECT r.match_id, r.side, r.record_kind, r.record_ref, r.amount, r.currency
      FROM manual_matches m JOIN manual_match_records r ON r.match_id = m.id
      WHERE m.status = 'active'
    ), found AS (
      SELECT x.*, (l.entry_id IS NOT NULL OR p.item_ref IS NOT NULL) AS open
      FROM manual x
      LEFT JOIN ledger_leftovers l ON x.side = 'ledger' AND l.entry_id = x.record_ref COLLATE "C"
        AND l.amount = x.amount AND l.currency = x.currency AND ${openLedger("l")}
      LEFT JOIN provider_leftovers p ON x.side = 'provider' AND p.kind = x.record_kind
        AND p.item_ref = x.record_ref COLLATE "C" AND p.amount = x.amount
        AND p.currency = x.currency AND ${openProvider("p")}
    )`,
  ),
};
