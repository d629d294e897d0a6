// Booking style "per authorization chain": one ledger entry on an authorization books all its
// clearings and refunds, compared in settle currency. A chain whose items add up is one match
// group; one that does not is one amount_mismatch (or currency_mismatch) on the entry, with the
// chain's items as its records. A chain settled in several currencies has no one total: its
// break is a currency_mismatch without a provider amount, its detail gives each currency's sum.
import type { Statement } from "../statement";
import { entryWithItems, insertMembers, openLedger, openProvider } from "../work-tables";
import { compositeMismatch } from "./composites";

const chain = entryWithItems("'chain:' || ok.ref", "chain");

export const authorizationChain: Statement = {
  name: "chain",
  text: insertMembers(
    [
      { row: chain.entry, from: "FROM ok" },
      { row: chain.item, from: "FROM ok JOIN items i ON i.origin_ref = ok.ref" },
    ],
    `cand AS (
      SELECT l.entry_id, l.ref, l.amount, l.currency,
        row_number() OVER (PARTITION BY l.ref ORDER BY l.entry_id) AS rn
      FROM ledger_leftovers l JOIN card_transactions a ON a.txn_order_no = l.ref AND a.txn_type = 'AUTHORIZATION'
      WHERE l.kind = 'card_transaction'
    ), items AS (
      SELECT p.* FROM provider_leftovers p
      WHERE p.kind = 'card_transaction' AND p.origin_ref IN (SELECT ref FROM cand WHERE rn = 1)
    ), sums AS (
      SELECT origin_ref, sum(amount) AS amount, min(currency) AS c1, max(currency) AS c2
      FROM items GROUP BY origin_ref
    ), ok AS (
      SELECT c.* FROM cand c JOIN sums s ON s.origin_ref = c.ref
      WHERE c.rn = 1 AND s.amount = c.amount AND s.c1 = c.currency AND s.c2 = c.currency
    )`,
  ),
};

export const authorizationChainMismatch: Statement = compositeMismatch({
  name: "chain mismatch",
  recordKind: "card_transaction",
  key: "p:chain",
  detail: `CASE WHEN x.pc IS NULL
    THEN format('authorization %s: its clearings and refunds are in several currencies (%s), the ledger books %s %s (entry %s)',
      x.ref, x.figures, x.la, x.lc, x.entry_id)
    ELSE format('authorization %s: its clearings and refunds sum to %s %s, the ledger books %s %s (entry %s)',
      x.ref, x.pa, x.pc, x.la, x.lc, x.entry_id) END`,
  itemsOf: "i.origin_ref = x.ref",
  withClause: `l AS (
    SELECT l.*, row_number() OVER (PARTITION BY l.ref ORDER BY l.entry_id) AS rn
    FROM ledger_leftovers l JOIN card_transactions a ON a.txn_order_no = l.ref AND a.txn_type = 'AUTHORIZATION'
    WHERE l.kind = 'card_transaction' AND ${openLedger("l")}
  ), items AS (
    SELECT p.* FROM provider_leftovers p WHERE p.kind = 'card_transaction' AND ${openProvider("p")}
      AND p.origin_ref IN (SELECT ref FROM l WHERE rn = 1)
  ), per_currency AS (
    SELECT origin_ref, currency, sum(amount) AS amount, min(occurred_at) AS at
    FROM items GROUP BY origin_ref, currency
  ), sums AS (
    -- Amounts in different currencies do not add up: a chain in several has no total (pa and
    -- pc null, a currency_mismatch of the entry), its detail names each currency's sum.
    SELECT origin_ref, CASE WHEN count(*) = 1 THEN min(amount) END AS amount,
      CASE WHEN count(*) = 1 THEN min(currency) END AS currency, min(at) AS at,
      string_agg(amount::text || ' ' || currency, ', ' ORDER BY currency) AS figures
    FROM per_currency GROUP BY origin_ref
  ), x AS (
    SELECT l.entry_id, l.ref, l.amount AS la, l.currency AS lc, s.amount AS pa, s.currency AS pc,
      s.figures, s.at
    FROM l JOIN sums s ON s.origin_ref = l.ref WHERE l.rn = 1
  )`,
});
