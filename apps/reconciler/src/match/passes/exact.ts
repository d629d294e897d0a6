// Pass 1, exact: the one pass that reads every record. One hash join of all provider items with
// all ledger entries on key, amount and currency; a FULL JOIN, so the records without a match
// come out of the same scan instead of two more over a million rows. Its table, run_records, holds
// every record of the run once: as a pair (a provider item and the entry that books it), a
// provider item alone, or a ledger entry alone, each with its entity (a pair is of one: the join
// never pairs across entities). The later passes work on the leftovers (provider_leftovers,
// ledger_leftovers: small) and look up what they need of the rest in run_records.
import { sampled } from "../planner-settings";
import type { Statement } from "../statement";

/** A row of run_records (alias a) that is an exact pair. */
export const paired = (a: string) => `${a}.item_ref IS NOT NULL AND ${a}.entry_id IS NOT NULL`;

/**
 * Ledger entries with the key provider items have: operations and their fees may be booked under
 * operateRecordId, so they are keyed by clientRequestId. The ref takes the provider tables'
 * collation (provider_ref is "C"), so the later passes' lookups of leftovers in card_transactions
 * and operate_records use those tables' indexes instead of scanning them.
 */
const LEDGER_KEYED = `SELECT e.entry_id, e.kind,
    CASE WHEN e.kind IN ('card_operation', 'fee') THEN coalesce(o.client_request_id, e.provider_ref)
      ELSE e.provider_ref END COLLATE "default" AS ref,
    coalesce(e.fee_type, '') AS fee_type, e.amount, e.currency, e.card_id, e.booked_at, e.entity
  FROM ledger_entries e
  LEFT JOIN operate_records o ON o.operate_record_id = e.provider_ref
    AND e.kind IN ('card_operation', 'fee')`;

/** The columns of provider_leftovers and ledger_leftovers, read off run_records. */
const PROVIDER_LEFTOVER = `kind, ref, fee_type, item_ref, parent_kind, amount, currency, card_id,
  occurred_at, record_type, origin_ref, refund_of, entity`;
const LEDGER_LEFTOVER = `entry_id, kind, ref, fee_type, amount, currency, entry_card_id AS card_id,
  booked_at, entity`;

/**
 * A column only a record without a counterpart needs (the passes over the leftovers read it;
 * nothing reads it of a pair): NULL in a pair, which keeps a million-row run_records a third
 * smaller (0.5 s less to write it, and every later scan shorter). `other` is the counterpart's
 * column that is NULL when the record stands alone. A pair's entry that exact duplicates turns
 * into a leftover takes its card and time from the ledger again.
 */
const ALONE = (column: string, other = "l.entry_id") =>
  `CASE WHEN ${other} IS NULL THEN ${column} END`;

export function exactPass(): Statement[] {
  return [
    {
      name: "exact",
      text: `CREATE TEMP TABLE run_records ON COMMIT DROP AS
        SELECT coalesce(p.kind, l.kind) AS kind, coalesce(p.ref, l.ref) AS ref,
          coalesce(p.fee_type, l.fee_type) AS fee_type, coalesce(p.amount, l.amount) AS amount,
          coalesce(p.currency, l.currency) AS currency,
          p.item_ref, p.parent_kind, ${ALONE("p.card_id")} AS card_id,
          ${ALONE("p.occurred_at")} AS occurred_at, p.record_type, p.origin_ref, p.refund_of,
          l.entry_id, ${ALONE("l.card_id", "p.item_ref")} AS entry_card_id,
          ${ALONE("l.booked_at", "p.item_ref")} AS booked_at, coalesce(p.entity, l.entity) AS entity
        FROM provider_items p FULL JOIN (${LEDGER_KEYED}) l
          ON l.kind = p.kind AND l.ref = p.ref AND l.fee_type = p.fee_type
            AND l.currency = p.currency AND l.amount = p.amount AND l.entity = p.entity`,
    },
    {
      // A provider item matched by several equal entries: the lowest entry_id keeps it, the
      // others stand alone (duplicates). Where one key names several provider items (an
      // operation fee type charged in two currencies, a clientRequestId on two operations)
      // only the lowest entry's pair stays, and the other items drop out: a record sits in one
      // match, and the run keeps one item per key.
      name: "exact duplicates",
      text: `WITH candidates AS (
          -- 64-bit hashes of the provider keys that several rows hold. Sorting a million
          -- integers (the subquery's ORDER BY makes the grouping a sorted one) costs half of
          -- hash-grouping a million text keys; rows of an equal hash are then grouped by key.
          SELECT h FROM (SELECT hashtextextended(item_ref, 0) AS h FROM run_records
            WHERE item_ref IS NOT NULL ORDER BY 1) x
          GROUP BY h HAVING count(*) > 1
        ), rows AS (
          SELECT x.ctid AS row_id, x.entry_id, row_number() OVER w AS rn, count(*) OVER w AS n,
            count(x.entry_id) OVER w AS matched
          FROM run_records x
          WHERE x.item_ref IS NOT NULL AND hashtextextended(x.item_ref, 0) IN (SELECT h FROM candidates)
          -- Rows of one entry (it matched two operations of one clientRequestId): the latest
          -- operation (origin_ref) keeps the pair, never the row order; ctid only for twins.
          WINDOW w AS (PARTITION BY x.kind, x.item_ref
            ORDER BY x.entry_id, x.origin_ref DESC, x.currency, x.amount, x.ctid
            ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
        ), shared AS (
          SELECT row_id, entry_id, rn FROM rows WHERE n > 1 AND matched > 0
        ), gone AS (
          DELETE FROM run_records x WHERE x.ctid = ANY (ARRAY(SELECT row_id FROM shared WHERE rn > 1))
          RETURNING x.kind, x.ref, x.fee_type, x.amount, x.currency, x.entry_id
        )
        INSERT INTO run_records (kind, ref, fee_type, amount, currency, entry_id, entry_card_id, booked_at, entity)
        SELECT DISTINCT ON (g.entry_id) g.kind, g.ref, g.fee_type, g.amount, g.currency, g.entry_id,
          e.card_id, e.booked_at, e.entity
        FROM gone g JOIN ledger_entries e ON e.entry_id = g.entry_id
        WHERE g.entry_id NOT IN (SELECT entry_id FROM shared WHERE rn = 1)
        ORDER BY g.entry_id`,
    },
    ...[
      ["provider_leftovers", PROVIDER_LEFTOVER],
      ["ledger_leftovers", LEDGER_LEFTOVER],
    ].map(([table, columns]) => ({
      name: "leftovers table",
      text: `CREATE TEMP TABLE ${table} ON COMMIT DROP AS SELECT ${columns} FROM run_records WHERE false`,
    })),
    {
      // Both sides' leftovers from one scan of run_records (a million rows; the leftovers are
      // few, and the CTE read twice is kept once).
      name: "leftovers",
      text: `WITH alone AS (SELECT * FROM run_records WHERE entry_id IS NULL OR item_ref IS NULL),
        provider AS (INSERT INTO provider_leftovers SELECT ${PROVIDER_LEFTOVER} FROM alone
          WHERE entry_id IS NULL)
        INSERT INTO ledger_leftovers SELECT ${LEDGER_LEFTOVER} FROM alone WHERE item_ref IS NULL`,
    },
    // Temporary tables have no statistics until analysed; without them the planner picks
    // nested loops over the leftovers that take minutes instead of milliseconds. Of run_records
    // only the columns later passes filter on (half the time of every column), from the small
    // sample (planner-settings.ts): 0.32 s of a 1M-record run with the default one.
    ...sampled(
      "analyze",
      "run_records (kind, item_ref, entry_id, parent_kind, record_type), provider_leftovers, ledger_leftovers",
    ),
  ];
}
