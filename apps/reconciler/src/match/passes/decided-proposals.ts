// Finance's decisions on the tolerant pass's proposals (proposal_decisions, written by
// workflow/decide-proposal.ts), applied by every run, full or incremental, at the tolerant pass's
// precedence: a confirmed pair is a match group (status confirmed) taken just before the tolerant
// pass runs, so no proposal or break takes its records; a rejected pair is never a tolerant
// candidate again (tolerant.ts asks `decided`), so its records become what they would be without
// it (another proposal, or missing_in_ledger and missing_at_provider). A decision holds while
// both records are still unmatched with the amount and currency decided on: a change of either
// lapses it (the records are proposed again, and someone decides again).
import type { Statement } from "../statement";
import { insertMembers, openLedger, openProvider } from "../work-tables";

/**
 * SQL: a `decision` (confirmed, rejected) on ledger leftover `l` and provider leftover `p` that
 * still holds (not lapsed: a lapsed one stays lapsed should the figures come back). The stored ids are compared in "C", the collation of the run's refs.
 */
export const decided = (decision: "confirmed" | "rejected", l: string, p: string) =>
  `EXISTS (SELECT 1 FROM proposal_decisions d WHERE d.decision = '${decision}' AND d.lapsed_at IS NULL
    AND d.entry_id = ${l}.entry_id COLLATE "C" AND d.item_ref = ${p}.item_ref COLLATE "C"
    AND d.entry_amount = ${l}.amount AND d.entry_currency = ${l}.currency
    AND d.item_amount = ${p}.amount AND d.item_currency = ${p}.currency)`;

const group = {
  match_id: "'confirmed:' || entry_id",
  pass: "'confirmed_proposal'",
  status: "'confirmed'",
};

export const confirmedProposals: Statement = {
  name: "confirmed proposals",
  text: insertMembers(
    [
      {
        row: {
          ...group,
          side: "'ledger'",
          record_kind: "'ledger_entry'",
          record_ref: "entry_id",
          amount: "la",
          currency: "lc",
        },
        from: "FROM confirmed",
      },
      {
        row: {
          ...group,
          side: "'provider'",
          record_kind: "kind",
          record_ref: "item_ref",
          amount: "pa",
          currency: "pc",
        },
        from: "FROM confirmed",
      },
    ],
    `confirmed AS (
      SELECT l.entry_id, l.amount AS la, l.currency AS lc, p.kind, p.item_ref, p.amount AS pa,
        p.currency AS pc
      FROM ledger_leftovers l JOIN provider_leftovers p ON p.kind = 'card_transaction'
      WHERE l.kind = 'card_transaction' AND ${decided("confirmed", "l", "p")}
        AND ${openLedger("l")} AND ${openProvider("p")}
    )`,
  ),
};
