// Authorizations still processing past the stale limit, with what they still hold (the amount
// not yet cleared or reversed): stale_authorization, a hold to watch rather than a difference.
// One its clearings and reversals used in full holds nothing and is no break, though its own
// status often stays P in the store (the service settles it later than the sync's lookback reads).
import { breakClass, classSql } from "../break-class";
import type { ResolvedMatchOptions } from "../match-options";
import { matchPass } from "../match-pass";
import { literals, type Statement } from "../statement";
import { insertBreakItems } from "../work-tables";

const pendingAuthorization = "txn_type = 'AUTHORIZATION' AND txn_status = 'P'";

const staleAuthorization = breakClass({
  name: "stale_authorization",
  priority: 4,
  meaning: "an authorization still processing past the stale limit, with the money it holds",
  hold: true,
  // An authorization goes stale when `stale` has passed since it, though nothing changed.
  clock: {
    keysReached: (v, lastAsOf) => `SELECT txn_order_no, 0 FROM card_transactions
      WHERE ${pendingAuthorization}
        AND transaction_time >= ${lastAsOf} - ${v.stale} AND transaction_time < ${v.asOf} - ${v.stale}`,
    nextAt: (
      v,
      schema,
    ) => `(SELECT min(transaction_time) + ${v.stale} FROM ${schema}.card_transactions
      WHERE ${pendingAuthorization} AND transaction_time >= ${v.asOf} - ${v.stale})`,
  },
});

function staleAuthorizations(o: ResolvedMatchOptions): Statement {
  const v = literals(o);
  const held = "greatest(a.card_amount - coalesce(u.used, 0), 0)";
  return {
    name: "stale authorizations",
    text: insertBreakItems(
      {
        break_key: "'p:stale:' || a.txn_order_no",
        class: classSql(staleAuthorization),
        status: "'open'",
        record_kind: "'card_transaction'",
        provider_ref: "a.txn_order_no",
        currency: "a.card_currency",
        amount: held,
        provider_amount: held,
        detail: `format('authorization %s has held %s %s since %s', a.txn_order_no, ${held},
          a.card_currency, to_char(a.transaction_time AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI'))`,
        occurred_at: "a.transaction_time",
        main_item: "true",
      },
      `FROM card_transactions a
      LEFT JOIN LATERAL (SELECT sum(c.card_amount) AS used FROM card_transactions c
        WHERE c.origin_txn_order_no = a.txn_order_no AND c.txn_status = 'S'
          AND c.txn_type IN ('CLEARING', 'REVERSAL')) u ON true
      WHERE a.txn_type = 'AUTHORIZATION' AND a.txn_status = 'P'
        AND a.transaction_time < ${v.asOf} - ${v.stale}
        AND a.card_amount > coalesce(u.used, 0)`,
    ),
  };
}

export const staleAuthorizationsPass = matchPass([staleAuthorization], (o) => [
  staleAuthorizations(o),
]);
