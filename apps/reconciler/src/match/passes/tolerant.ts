// The tolerant fallback: an entry and a provider item of the same card and currency, amounts
// within the tolerance, times within the window. It only proposes (a person confirms): a
// `proposed` match group and a proposed_match break; each record in one proposal, the best
// candidate first, ties broken by id.
import type { ResolvedMatchOptions } from "../match-options";
import { literals, type Statement } from "../statement";
import { insertBreakItems, insertMembers, itemOf, openLedger, openProvider } from "../work-tables";

export function tolerant(o: ResolvedMatchOptions): Statement[] {
  const v = literals(o);
  const proposal = {
    match_id: "'proposed:' || entry_id",
    pass: "'tolerant'",
    status: "'proposed'",
  };
  return [
    {
      name: "tolerant",
      text: `CREATE TEMP TABLE tolerant_proposals ON COMMIT DROP AS
        WITH c AS (
          SELECT l.entry_id, l.amount AS la, l.currency, l.card_id, l.booked_at, p.item_ref, p.ref,
            p.amount AS pa, p.occurred_at, abs(l.amount - p.amount) AS d,
            abs(extract(epoch FROM (l.booked_at - p.occurred_at))) AS t
          FROM ledger_leftovers l JOIN provider_leftovers p ON p.kind = 'card_transaction' AND p.card_id = l.card_id
            AND p.currency = l.currency
          WHERE l.kind = 'card_transaction' AND l.card_id IS NOT NULL AND ${openLedger("l")} AND ${openProvider("p")}
            AND abs(l.amount - p.amount) <= ${v.tolerance}
            AND l.booked_at BETWEEN p.occurred_at - ${v.window} AND p.occurred_at + ${v.window}
        ), best_l AS (
          SELECT DISTINCT ON (entry_id) * FROM c ORDER BY entry_id, d, t, item_ref
        )
        SELECT DISTINCT ON (item_ref) * FROM best_l ORDER BY item_ref, d, t, entry_id`,
    },
    {
      name: "tolerant matches",
      text: insertMembers([
        {
          row: {
            ...proposal,
            side: "'ledger'",
            record_kind: "'ledger_entry'",
            record_ref: "entry_id",
            amount: "la",
            currency: "currency",
          },
          from: "FROM tolerant_proposals",
        },
        {
          row: {
            ...proposal,
            side: "'provider'",
            record_kind: "'card_transaction'",
            record_ref: "item_ref",
            amount: "pa",
            currency: "currency",
          },
          from: "FROM tolerant_proposals",
        },
      ]),
    },
    {
      name: "tolerant breaks",
      text: insertBreakItems(
        {
          break_key: "'l:' || x.entry_id",
          class: "'proposed_match'",
          status: "'open'",
          record_kind: "'card_transaction'",
          provider_ref: "x.ref",
          entry_id: "x.entry_id",
          currency: "x.currency",
          amount: "abs(x.pa - x.la)",
          provider_amount: "x.pa",
          ledger_amount: "x.la",
          detail: `format('entry %s (%s %s) is proposed as %s (%s %s): confirm or reject', x.entry_id, x.la,
            x.currency, x.ref, x.pa, x.currency)`,
          occurred_at: "x.occurred_at",
          ...itemOf("r"),
          item_currency: "x.currency",
        },
        `FROM tolerant_proposals x CROSS JOIN LATERAL (VALUES
          ('ledger', 'ledger_entry', x.entry_id, x.la, true),
          ('provider', 'card_transaction', x.item_ref, x.pa, false)
        ) AS r(side, kind, ref, amount, main)`,
      ),
    },
  ];
}
