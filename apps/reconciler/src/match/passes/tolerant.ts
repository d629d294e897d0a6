// The tolerant fallback: an entry and a provider item of the same card and currency, amounts
// within the tolerance, times within the window. It only proposes (a person confirms): a
// `proposed` match group and a proposed_match break; each record in one proposal, assigned
// closest first (a greedy assignment: an entry whose closest item went to a closer pair is
// proposed its next closest), ties broken by id.
import { breakClass, classSql } from "../break-class";
import type { ResolvedMatchOptions } from "../match-options";
import { matchPass } from "../match-pass";
import { literals, type Statement } from "../statement";
import { insertBreakItems, insertMembers, itemOf, openLedger, openProvider } from "../work-tables";
import { decided } from "./decided-proposals";

const proposedMatch = breakClass({
  name: "proposed_match",
  priority: 3,
  meaning:
    "an entry and a record of one card close in amount and time, proposed for a person to confirm",
});

function tolerant(o: ResolvedMatchOptions): Statement[] {
  const proposal = {
    match_id: "'proposed:' || entry_id",
    pass: "'tolerant'",
    status: "'proposed'",
  };
  return [
    ...closestFirst(o),
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
          class: classSql(proposedMatch),
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

/** The proposals (tolerant_proposals): the candidate pairs, assigned closest first. */
function closestFirst(o: ResolvedMatchOptions): Statement[] {
  const v = literals(o);
  const columns =
    "entry_id, la, currency, card_id, booked_at, item_ref, ref, pa, occurred_at, d, t";
  const qualified = columns.replace(/(\w+)/g, "c.$1");
  return [
    {
      // Every pair that could be proposed: d, how far apart the amounts are, then t, the times.
      name: "tolerant candidates",
      text: `CREATE TEMP TABLE tolerant_candidates ON COMMIT DROP AS
        SELECT l.entry_id, l.amount AS la, l.currency, l.card_id, l.booked_at, p.item_ref, p.ref,
          p.amount AS pa, p.occurred_at, abs(l.amount - p.amount) AS d,
          abs(extract(epoch FROM (l.booked_at - p.occurred_at))) AS t
        FROM ledger_leftovers l JOIN provider_leftovers p ON p.kind = 'card_transaction' AND p.card_id = l.card_id
          AND p.currency = l.currency
        WHERE l.kind = 'card_transaction' AND l.card_id IS NOT NULL AND ${openLedger("l")} AND ${openProvider("p")}
          AND abs(l.amount - p.amount) <= ${v.tolerance}
          AND l.booked_at BETWEEN p.occurred_at - ${v.window} AND p.occurred_at + ${v.window}
          AND NOT ${decided("rejected", "l", "p")}`,
    },
    {
      name: "tolerant proposals",
      text: `CREATE TEMP TABLE tolerant_proposals ON COMMIT DROP AS
        SELECT ${columns} FROM tolerant_candidates WHERE false`,
    },
    {
      // Closest first: the pairs ordered by (d, t, entry_id, item_ref), each taken unless an
      // earlier one took its entry or item. An entry that loses its closest item is then tried
      // with its next. Taken set-wise, in rounds: a pair that is both its entry's and its item's
      // best among the pairs left comes before every pair it shuts out (any pair sharing its
      // entry or item is later), so a round takes all such pairs and drops the pairs of their
      // records; the smallest pair left is always one, so each round takes at least one.
      name: "tolerant greedy",
      text: `DO $$ BEGIN LOOP
        WITH best_l AS (
          SELECT DISTINCT ON (entry_id) entry_id, item_ref FROM tolerant_candidates
          ORDER BY entry_id, d, t, item_ref
        ), best_p AS (
          SELECT DISTINCT ON (item_ref) entry_id, item_ref FROM tolerant_candidates
          ORDER BY item_ref, d, t, entry_id
        ), taken AS (
          INSERT INTO tolerant_proposals (${columns})
          SELECT ${qualified} FROM tolerant_candidates c
            JOIN best_l b ON b.entry_id = c.entry_id AND b.item_ref = c.item_ref
            JOIN best_p q ON q.entry_id = c.entry_id AND q.item_ref = c.item_ref
          RETURNING entry_id, item_ref
        )
        DELETE FROM tolerant_candidates
          WHERE entry_id IN (SELECT entry_id FROM taken) OR item_ref IN (SELECT item_ref FROM taken);
        EXIT WHEN NOT FOUND;
      END LOOP; END $$`,
    },
  ];
}

export const tolerantPass = matchPass([proposedMatch], tolerant);
