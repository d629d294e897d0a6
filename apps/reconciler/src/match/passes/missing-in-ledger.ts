// The provider moved money the ledger has not booked: missing_in_ledger on the record (pending
// inside the ledger grace), with its fees as further items. An account item whose postings net
// to zero (a payout that failed and came back with its fee) moved no money: it raises nothing
// unbooked, and stays an item, so an entry booking it as 0.00 still matches it.
import { breakClass, classSql } from "../break-class";
import type { ResolvedMatchOptions } from "../match-options";
import { matchPass } from "../match-pass";
import { literals, type Statement } from "../statement";
import { insertBreakItems, openProvider } from "../work-tables";

const missingInLedger = breakClass({
  name: "missing_in_ledger",
  priority: 3,
  meaning: "the provider moved money the ledger has not booked",
  grace: (v) => v.ledgerGrace,
});

function missingInLedgerStatement(o: ResolvedMatchOptions): Statement {
  const v = literals(o);
  return {
    name: "missing in ledger",
    text: insertBreakItems(
      {
        break_key: "'p:' || x.kind || ':' || x.item_ref",
        class: classSql(missingInLedger),
        status: `CASE WHEN x.occurred_at > ${v.asOf} - ${missingInLedger.grace(v)} THEN 'pending' ELSE 'open' END`,
        record_kind: "x.kind",
        provider_ref: "x.ref",
        currency: "x.currency",
        // The record with its fees in its currency, as the statement explains the break.
        amount: "abs(x.amount + coalesce(t.fees, 0))",
        provider_amount: "x.amount + coalesce(t.fees, 0)",
        detail: `format('%s %s: the provider has %s %s (%s%s), the ledger has nothing', replace(x.kind, '_', ' '),
          x.ref, x.amount, x.currency, lower(x.record_type),
          CASE WHEN t.fees <> 0 THEN format('; fees %s, together %s', t.fees, x.amount + t.fees) ELSE '' END)`,
        occurred_at: "x.occurred_at",
        side: "'provider'",
        item_kind: "r.kind",
        item_ref: "r.item_ref",
        item_amount: "r.amount",
        item_currency: "r.currency",
        main_item: "r.main",
      },
      `FROM p x JOIN recs r ON r.owner_kind = x.kind AND r.owner = x.item_ref
      LEFT JOIN fees t ON t.owner_kind = x.kind AND t.owner = x.item_ref AND t.currency = x.currency
      WHERE x.kind <> 'fee'`,
      `p AS (SELECT p.* FROM provider_leftovers p WHERE ${openProvider("p")}
        AND NOT (p.kind = 'account' AND p.amount = 0)),
      recs AS (
        SELECT x.kind AS owner_kind, x.item_ref AS owner, x.kind, x.item_ref, x.amount, x.currency,
          true AS main FROM p x WHERE x.kind <> 'fee'
        UNION ALL
        SELECT x.kind, x.item_ref, f.kind, f.item_ref, f.amount, f.currency, false
        FROM p x JOIN p f ON f.kind = 'fee' AND f.ref = x.ref AND f.parent_kind = x.kind
        WHERE x.kind <> 'fee'
      ),
      fees AS (SELECT owner_kind, owner, currency, sum(amount) AS fees FROM recs WHERE NOT main
        GROUP BY owner_kind, owner, currency)`,
    ),
  };
}

export const missingInLedgerPass = matchPass([missingInLedger], (o) => [
  missingInLedgerStatement(o),
]);
