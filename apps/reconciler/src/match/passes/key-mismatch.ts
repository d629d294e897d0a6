// Booking style "per record", wrong amount: an entry with a provider item's key whose amount or
// currency differs. A break, never a match: amount_mismatch, currency_mismatch, or fee_mismatch
// for a fee line. Of several on one key, entry and item of the same currency are paired first
// (by rank within it); only those left over are paired across currencies. Never across entities.
import { breakClass } from "../break-class";
import { matchPass } from "../match-pass";
import type { Statement } from "../statement";
import { insertBreakItems, itemOf, openLedger, openProvider } from "../work-tables";
import { feeMismatch } from "./unmatched-fees";

export const amountMismatch = breakClass({
  name: "amount_mismatch",
  priority: 2,
  meaning: "an entry books a provider record with another amount",
});

export const currencyMismatch = breakClass({
  name: "currency_mismatch",
  priority: 2,
  meaning: "an entry books a provider record in another currency",
});

/**
 * The currency and amount at stake of a mismatch between a provider side `x.pa` in `x.pc` and a
 * ledger side `x.la` in `x.lc` (pc and pa null: a composite in several currencies, no total).
 * One currency: the difference. Two: the provider's side whole, in the provider's currency —
 * the ledger's amount is other money; it is the break's effect in its currency, as the report,
 * the queue's totals, a write-off and the second-approval limit count it. No provider total: the
 * entry, in its currency.
 */
export const mismatchAtStake = (x: string) => ({
  currency: `coalesce(${x}.pc, ${x}.lc)`,
  amount: `CASE WHEN ${x}.pc = ${x}.lc THEN abs(${x}.pa - ${x}.la) ELSE abs(coalesce(${x}.pa, ${x}.la)) END`,
});

const keyMismatch: Statement = {
  name: "key mismatch",
  text: insertBreakItems(
    {
      break_key: "'p:' || x.kind || ':' || x.item_ref",
      class: "x.class",
      status: "'open'",
      record_kind: "x.kind",
      provider_ref: "x.ref",
      entry_id: "x.entry_id",
      ...mismatchAtStake("x"),
      provider_amount: "x.pa",
      ledger_amount: "x.la",
      detail: `format('%s %s%s: provider %s %s, ledger %s %s (entry %s)', replace(x.kind, '_', ' '), x.ref,
        CASE WHEN x.fee_type <> '' THEN ' ' || x.fee_type ELSE '' END, x.pa, x.pc, x.la, x.lc, x.entry_id)`,
      occurred_at: "x.occurred_at",
      ...itemOf("r"),
    },
    `FROM pairs x CROSS JOIN LATERAL (VALUES
      ('provider', x.kind, x.item_ref, x.pa, x.pc, true),
      ('ledger', 'ledger_entry', x.entry_id, x.la, x.lc, false)
    ) AS r(side, kind, ref, amount, currency, main)`,
    `l AS (
      SELECT l.*, row_number() OVER (
          PARTITION BY l.kind, l.ref, l.fee_type, l.currency, l.entity ORDER BY l.entry_id) AS crn
      FROM ledger_leftovers l WHERE ${openLedger("l")}
    ), p AS (
      -- Items of one key rank by item_ref, then by the record they come from (origin_ref: the
      -- operateRecordId of an operation's items), latest first: a clientRequestId can name two
      -- operations, and their rank must not follow row order.
      SELECT p.*, row_number() OVER (
          PARTITION BY p.kind, p.ref, p.fee_type, p.currency, p.entity ORDER BY p.item_ref, p.origin_ref DESC) AS crn
      FROM provider_leftovers p WHERE ${openProvider("p")}
    ), same AS (
      -- An entry is compared with an item of its own currency first: a key with items in two
      -- currencies, each booked a little off, is two amount differences, not two currencies.
      SELECT p.kind, p.item_ref, p.ref, p.fee_type, p.amount AS pa, p.currency AS pc, p.occurred_at,
        l.entry_id, l.amount AS la, l.currency AS lc
      FROM p JOIN l ON l.kind = p.kind AND l.ref = p.ref AND l.fee_type = p.fee_type
        AND l.currency = p.currency AND l.entity = p.entity AND l.crn = p.crn
    ), l2 AS (
      -- What is left of the key on both sides is paired across currencies, by rank.
      SELECT l.*, row_number() OVER (PARTITION BY l.kind, l.ref, l.fee_type, l.entity ORDER BY l.entry_id) AS rn
      FROM l WHERE NOT EXISTS (SELECT 1 FROM same s WHERE s.entry_id = l.entry_id)
    ), p2 AS (
      SELECT p.*, row_number() OVER (PARTITION BY p.kind, p.ref, p.fee_type, p.entity
          ORDER BY p.currency, p.item_ref, p.origin_ref DESC) AS rn
      FROM p WHERE NOT EXISTS (SELECT 1 FROM same s WHERE s.kind = p.kind AND s.item_ref = p.item_ref)
    ), matched AS (
      SELECT kind, item_ref, ref, fee_type, pa, pc, occurred_at, entry_id, la, lc FROM same
      UNION ALL
      SELECT p.kind, p.item_ref, p.ref, p.fee_type, p.amount, p.currency, p.occurred_at,
        l.entry_id, l.amount, l.currency
      FROM p2 p JOIN l2 l ON l.kind = p.kind AND l.ref = p.ref AND l.fee_type = p.fee_type
        AND l.entity = p.entity AND l.rn = p.rn
    ), pairs AS (
      SELECT m.kind, m.item_ref, m.ref, m.fee_type, m.pa, m.pc, m.occurred_at, m.entry_id, m.la, m.lc,
        CASE WHEN m.kind = 'fee' THEN '${feeMismatch.name}'
          WHEN m.pc <> m.lc THEN '${currencyMismatch.name}' ELSE '${amountMismatch.name}' END AS class
      FROM matched m
    )`,
  ),
};

export const keyMismatchPass = matchPass([amountMismatch, currencyMismatch], () => [keyMismatch]);
