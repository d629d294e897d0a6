// The keys each lookup of the scope can find, as a few ranges read once per run from the index
// the lookup probes. The scope looks every frontier key up in every table and stored kind that
// could hold it (card records by key, origin and refund_of, operations by both ids, postings and
// serviceIds, stored pairs, group members and leftovers per kind), yet a provider gives each
// kind of record an id of its own shape (card transactions T…, operations g-…, serviceIds
// digits), so one or two of the twenty or so probes per key can find anything; and the stored
// results hold what the last run saw, so a record the provider sent since (its id past the
// last one of its shape, where ids grow) is in none of them. A key outside a lookup's ranges can
// find nothing there and is not probed; one inside is probed as before, so the scope is the same
// whatever the ids look like, only cheaper when they have shapes. Read under the matcher's lock
// and the change log's (run-match.ts): the tables keep these ranges for the run.
//
// Each range compares in the collation of the column it comes from: the provider tables' keys in
// the database's, the ledger's provider_ref and the stored results' refs in "C" (scope.ts), so
// the ranges and the keys are ordered alike. A column in "C" gets a range per leading character
// (RANGES at most); one in the database's collation, whose order of leading characters the
// collation decides, one range from its smallest key to its largest.
import type { Db } from "../../db/database";
import { queryText } from "../../db/query-rows";

/** The kinds of provider record the stored pairs and group members hold (stored-kinds.ts). */
export const PROVIDER_KINDS = ["card_transaction", "card_operation", "fee", "account"] as const;

export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** The name of the group holding the cash legs of the exact card operation pair of a key. */
export const CASH_LEG_GROUP = "exact:card_operation:";

/**
 * The refs of a fee and of an account item under key k: [k || from, k || to), their refs being
 * <key>#<fee type> and <serviceId>:<currency> ('$' and ';' are the characters after '#', ':').
 */
export const REF_RANGE = { fee: ["#", "$"], account: [":", ";"] } as const;

type Lookup = { table: string; column: string; where?: string; c?: boolean };

const leftover = (side: string): Lookup => ({
  table: "match_leftovers",
  column: "ref",
  where: `side = '${side}'`,
  c: true,
});

const stored = (table: string, where: string): Lookup => ({
  table,
  column: "record_ref",
  where,
  c: true,
});

/** The lookups bounded, each with the index column it probes. */
const LOOKUPS = {
  card: { table: "card_transactions", column: "txn_order_no" },
  cardOrigin: { table: "card_transactions", column: "origin_txn_order_no" },
  cardRefundOf: { table: "card_transactions", column: "origin_txn_order_no_for_refund" },
  operation: { table: "operate_records", column: "operate_record_id" },
  operationRequest: { table: "operate_records", column: "client_request_id" },
  posting: { table: "account_transactions", column: "service_id" },
  serviceId: { table: "service_ids", column: "service_id" },
  entryRef: { table: "ledger_entries", column: "provider_ref", c: true },
  "pair:card_transaction": stored("match_pairs", "record_kind = 'card_transaction'"),
  "pair:card_operation": stored("match_pairs", "record_kind = 'card_operation'"),
  "pair:fee": stored("match_pairs", "record_kind = 'fee'"),
  "pair:account": stored("match_pairs", "record_kind = 'account'"),
  "member:card_transaction": stored(
    "match_group_members",
    "side = 'provider' AND record_kind = 'card_transaction'",
  ),
  "member:card_operation": stored(
    "match_group_members",
    "side = 'provider' AND record_kind = 'card_operation'",
  ),
  "member:fee": stored("match_group_members", "side = 'provider' AND record_kind = 'fee'"),
  "member:account": stored("match_group_members", "side = 'provider' AND record_kind = 'account'"),
  "member:cash": stored(
    "match_group_members",
    "side = 'cash' AND record_kind = 'account_transaction'",
  ),
  "member:ledger": stored(
    "match_group_members",
    "side = 'ledger' AND record_kind = 'ledger_entry'",
  ),
  "leftover:provider": leftover("provider"),
  "leftover:ledger": leftover("ledger"),
  // The cash legs of an exact card operation pair, held under the pair's name (CASH_LEG_GROUP).
  cashLegGroup: {
    table: "match_group_members",
    column: "match_id",
    where: `match_id >= '${CASH_LEG_GROUP}' AND match_id < 'exact:card_operation;'`,
    c: true,
  },
} satisfies Record<string, Lookup>;

export type BoundedLookup = keyof typeof LOOKUPS;

/** The keys a lookup holds, as inclusive [lo, hi] ranges in key order (none when it holds none). */
export type KeyBounds = Record<BoundedLookup, readonly (readonly [string, string])[]>;

/**
 * The most ranges a lookup is read as: the last one reaches to its largest key. Each range costs
 * every frontier key a comparison, so ids of many leading characters (random ones) get a few
 * ranges' worth of use instead of one each.
 */
const RANGES = 6;

/**
 * Each lookup's ranges: its smallest and largest key first, for all lookups in one statement;
 * then, for those compared byte by byte, from the smallest key, the largest key sharing its
 * leading character and the next key after it, and so on, a statement for each step of all the
 * lookups still going (two index probes per lookup and step). Whatever a range's end, the next
 * starts at the first key after it, so together they hold every key the lookup can find.
 */
export async function readKeyBounds(tx: Db): Promise<KeyBounds> {
  // The smallest or largest key meeting `cond`, written as the index scan that min() and max()
  // are planned as (nulls left out, as they leave them out): less planning, which is most of
  // these statements' cost.
  const key = (l: Lookup, agg: "min" | "max", cond?: string) => {
    const where = [l.where, `${l.column} IS NOT NULL`, cond].filter(Boolean).join(" AND ");
    return `(SELECT ${l.column} FROM ${l.table} WHERE ${where}
      ORDER BY ${l.column}${agg === "max" ? " DESC" : ""} LIMIT 1)`;
  };
  const lookups = Object.entries(LOOKUPS) as [BoundedLookup, Lookup][];
  const ends = await queryText<{ lookup: BoundedLookup; lo: string | null; hi: string | null }>(
    tx,
    lookups
      .map(
        ([name, l]) =>
          `SELECT '${name}' AS lookup, ${key(l, "min")}::text AS lo, ${key(l, "max")}::text AS hi`,
      )
      .join("\n    UNION ALL "),
  );
  const bounds: Partial<Record<BoundedLookup, [string, string][]>> = {};
  // The lookups still being read: where the next range starts, and the lookup's largest key.
  let going: { name: BoundedLookup; lo: string; last: string }[] = [];
  for (const { lookup, lo, hi } of ends) {
    bounds[lookup] = [];
    if (lo === null || hi === null) continue;
    // Refs compared byte by byte are read range by range; keys in the database's collation as
    // one range.
    if ((LOOKUPS[lookup] as Lookup).c) going.push({ name: lookup, lo, last: hi });
    else bounds[lookup].push([lo, hi]);
  }
  while (going.length > 0) {
    const steps = await queryText<{ lookup: BoundedLookup; hi: string; next: string | null }>(
      tx,
      going
        .map(({ name, lo }) => {
          const l = LOOKUPS[name] as Lookup;
          const end = `greatest(${literal(lo)}, ${key(l, "max", `${l.column} < left(${literal(lo)}, 1) || chr(1114111)`)})`;
          return `SELECT '${name}' AS lookup, h.hi::text AS hi, ${key(l, "min", `${l.column} > h.hi`)}::text AS next
            FROM (SELECT ${end} AS hi) h`;
        })
        .join("\n    UNION ALL "),
    );
    const at = new Map(going.map((g) => [g.name, g]));
    going = [];
    for (const { lookup, hi, next } of steps) {
      const { lo, last } = at.get(lookup) as { lo: string; last: string };
      const ranges = bounds[lookup] as [string, string][];
      ranges.push([lo, hi]);
      if (next === null) continue;
      // The last range a lookup is read as reaches to its largest key.
      if (ranges.length === RANGES - 1) ranges.push([next, last]);
      else going.push({ name: lookup, lo: next, last });
    }
  }
  return bounds as KeyBounds;
}

const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

/** The ranges as one SQL condition: `inRange` of each, OR'ed; false when there is none. */
function anyRange(
  ranges: readonly (readonly [string, string])[],
  inRange: (lo: string, hi: string) => string,
): string {
  if (ranges.length === 0) return "false";
  const each = ranges.map(([lo, hi]) => inRange(literal(lo), literal(hi)));
  return each.length === 1 ? (each[0] as string) : `(${each.join(" OR ")})`;
}

/**
 * SQL true when key `k` (a text expression in the database's collation) may be held by
 * `lookup`: within one of its ranges, compared in its column's collation. Never true when the
 * lookup holds nothing.
 */
export function mayHold(bounds: KeyBounds, lookup: BoundedLookup, k: string): string {
  const key = (LOOKUPS[lookup] as Lookup).c ? `${k} COLLATE "C"` : k;
  return anyRange(bounds[lookup], (lo, hi) => `${key} BETWEEN ${lo} AND ${hi}`);
}

/**
 * SQL true when the stored records of `kind` under key `k` (recordOfKey in scope.ts: the ref
 * itself, or the range <k>#… for fees, <k>:… for account items) may be held by `lookup`.
 */
export function mayHoldKind(
  bounds: KeyBounds,
  lookup: `${"pair" | "member"}:${ProviderKind}`,
  kind: ProviderKind,
  k: string,
): string {
  if (kind !== "fee" && kind !== "account") return mayHold(bounds, lookup, k);
  const [from, to] = REF_RANGE[kind];
  // The refs in [k || from, k || to) meet [lo, hi] when k || to > lo and k || from <= hi.
  return anyRange(
    bounds[lookup],
    (lo, hi) =>
      `(${k} || '${to}') COLLATE "C" > ${lo} AND (${k} || '${from}') COLLATE "C" <= ${hi}`,
  );
}
