// Composites: one ledger entry booked for a record with its related provider items (an
// authorization's chain, a clearing net of its refunds, an operation gross of its fees).
// compositeRule gives a rule's match (the totals are equal) and its mismatch; compositeMismatch
// is one break on the entry of exactly the difference, with the composite's items as its other
// items. The rule files choose the composite that explains the entry best and hand it over as
// `x` (entry_id, ref, la, lc: the entry's amount and currency; pa, pc: the composite's, both null
// when its items are in several currencies; at: its time) with its items as `items`.
import type { Statement } from "../statement";
import { entryWithItems, insertBreakItems, insertMembers, itemOf } from "../work-tables";
import { amountMismatch, currencyMismatch, mismatchAtStake } from "./key-mismatch";

export function compositeMismatch(opts: {
  name: string;
  /** Prefix of the break key (the break is about the composite, keyed by its ref). */
  key: string;
  /** What the composite's ref names. */
  recordKind: "card_transaction" | "card_operation";
  /** A format() call describing the difference, over x. */
  detail: string;
  /** Which items belong to x: a condition on `i` and `x`. */
  itemsOf: string;
  /** The WITH clause defining x and items. */
  withClause: string;
}): Statement {
  return {
    name: opts.name,
    text: insertBreakItems(
      {
        break_key: `'${opts.key}:' || x.ref`,
        // pc null: a composite in several currencies (no total), the entry's currency differs.
        class: `CASE WHEN x.pc IS DISTINCT FROM x.lc THEN '${currencyMismatch.name}' ELSE '${amountMismatch.name}' END`,
        status: "'open'",
        record_kind: `'${opts.recordKind}'`,
        provider_ref: "x.ref",
        entry_id: "x.entry_id",
        ...mismatchAtStake("x"),
        provider_amount: "x.pa",
        ledger_amount: "x.la",
        detail: opts.detail,
        occurred_at: "x.at",
        ...itemOf("r"),
      },
      // Joined, not LATERAL: a lateral subquery over the CTE items would rescan it for each x
      // (one row per entry: cand's rn = 1 keeps one entry per ref, and an entry has one ref).
      `FROM x JOIN (
        SELECT x.entry_id AS of_entry, 'ledger' AS side, 'ledger_entry' AS kind, x.entry_id AS ref,
          x.la AS amount, x.lc AS currency, true AS main FROM x
        UNION ALL
        SELECT x.entry_id, 'provider', i.kind, i.item_ref, i.amount, i.currency, false
        FROM x JOIN items i ON ${opts.itemsOf}
      ) r ON r.of_entry = x.entry_id`,
      opts.withClause,
    ),
  };
}

/**
 * The two statements of a "one entry for a record and its related items" rule (net, gross),
 * from its candidate entries and items: the match where the totals are equal, and the mismatch
 * where the composite explains the entry better than the bare record does.
 */
export function compositeRule(opts: {
  name: string;
  pass: string;
  /** Prefix of the match id and of the mismatch's break key. */
  prefix: string;
  recordKind: "card_transaction" | "card_operation";
  /** CTEs `cand` (entries: entry_id, ref, amount, currency, rn) and `items` (provider items). */
  candidates: string;
  /** The items' column naming the composite they belong to (the entry's ref). */
  groupBy: string;
  /** Which items are the bare record (the clearing, the operation). */
  bareItem: string;
  /** Which items' time is the composite's (default: all). */
  timeOf?: string;
  /** The items of the composite whose ref is `${alias}.ref`: a condition on `i`. */
  itemsOf: (alias: string) => string;
  detail: string;
}): { match: Statement; mismatch: Statement } {
  const { entry, item } = entryWithItems(`'${opts.prefix}:' || ok.ref`, opts.pass);
  const atFilter = opts.timeOf ? ` FILTER (WHERE ${opts.timeOf})` : "";
  // Per entry: its composite's total, currencies and size, the bare record's amount and time.
  const composites = `${opts.candidates}, sums AS (
      SELECT ${opts.groupBy} AS ref, sum(amount) AS amount, min(currency) AS c1,
        max(currency) AS c2, count(*) AS n, sum(amount) FILTER (WHERE ${opts.bareItem}) AS bare,
        min(occurred_at)${atFilter} AS at
      FROM items GROUP BY ${opts.groupBy}
    ), composites AS (
      SELECT c.entry_id, c.ref, c.amount AS la, c.currency AS lc, s.amount AS pa, s.c1 AS pc,
        s.bare, s.at
      FROM cand c JOIN sums s ON s.ref = c.ref
      WHERE c.rn = 1 AND s.n > 1 AND s.c1 = c.currency AND s.c2 = c.currency
    )`;
  return {
    match: {
      name: opts.name,
      text: insertMembers(
        [
          { row: entry, from: "FROM ok" },
          { row: item, from: `FROM ok JOIN items i ON ${opts.itemsOf("ok")}` },
        ],
        `${composites}, ok AS (
          SELECT entry_id, ref, la AS amount, lc AS currency FROM composites WHERE pa = la
        )`,
      ),
    },
    mismatch: compositeMismatch({
      name: `${opts.name} mismatch`,
      recordKind: opts.recordKind,
      key: `p:${opts.prefix}`,
      detail: opts.detail,
      itemsOf: opts.itemsOf("x"),
      withClause: `${composites}, x AS (
        SELECT * FROM composites WHERE pa <> la AND abs(pa - la) < abs(bare - la)
      )`,
    }),
  };
}
