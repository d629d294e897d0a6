// Fee lines left on one side: a fee the ledger books that the provider did not charge, and a fee
// the provider charged that the ledger has no line for. Both fee_mismatch.
import { breakClass, classSql } from "../break-class";
import { matchPass } from "../match-pass";
import type { Statement } from "../statement";
import { entryAsItem, insertBreakItems, openLedger, openProvider } from "../work-tables";

export const feeMismatch = breakClass({
  name: "fee_mismatch",
  priority: 2,
  meaning: "a fee line differs from the fee the provider charged, or is on one side only",
});

const ledgerFees: Statement = {
  name: "ledger fees",
  text: insertBreakItems(
    {
      break_key: "'l:' || l.entry_id",
      class: classSql(feeMismatch),
      status: "'open'",
      record_kind: "'fee'",
      provider_ref: "l.ref",
      entry_id: "l.entry_id",
      currency: "l.currency",
      amount: "abs(l.amount)",
      ledger_amount: "l.amount",
      detail: `format('entry %s books a %s fee of %s %s on %s that the provider did not charge',
        l.entry_id, l.fee_type, l.amount, l.currency, l.ref)`,
      occurred_at: "l.booked_at",
      ...entryAsItem("l"),
    },
    `FROM ledger_leftovers l WHERE l.kind = 'fee' AND ${openLedger("l")}`,
  ),
};

export const providerFees: Statement = {
  name: "provider fees",
  text: insertBreakItems(
    {
      break_key: "'p:fee:' || p.item_ref",
      class: classSql(feeMismatch),
      status: "'open'",
      record_kind: "'fee'",
      provider_ref: "p.ref",
      currency: "p.currency",
      amount: "abs(p.amount)",
      provider_amount: "p.amount",
      detail: `format('%s fee of %s %s on %s: the ledger has no such fee line', p.fee_type, p.amount,
        p.currency, p.ref)`,
      occurred_at: "p.occurred_at",
      side: "'provider'",
      item_kind: "'fee'",
      item_ref: "p.item_ref",
      item_amount: "p.amount",
      item_currency: "p.currency",
      main_item: "true",
    },
    `FROM provider_leftovers p WHERE p.kind = 'fee' AND ${openProvider("p")}`,
  ),
};

export const ledgerFeesPass = matchPass([feeMismatch], () => [ledgerFees]);
