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
 * Each lookup's ranges: from its smallest key, the largest key sharing its leading character,
 * then the next key after that, and so on, a statement for each step of all the lookups still
 * going (two index probes per lookup and step; the first step also reads each lookup's ends).
 * Whatever a range's end, the next starts at the first key after it, so together they hold every
 * key the lookup can find.
 */
export async function readKeyBounds(tx: Db): Promise<KeyBounds> {
  // The smallest or largest key meeting `cond`, written as the index scan min() and max() are
  // planned as (nulls left out as they leave them): a third less planning, which is most of
  // these statements' cost.
  const key = (l: Lookup, agg: "min" | "max", cond?: string) => {
    const where = [l.where, `${l.column} IS NOT NULL`, cond].filter(Boolean).join(" AND ");
    return `(SELECT ${l.column} FROM ${l.table} WHERE ${where}
      ORDER BY ${l.column}${agg === "max" ? " DESC" : ""} LIMIT 1)`;
  };
  // From a range's start (f.lo), its end (hi) and the next range's start (next); in the
  // database's collation, one range to the lookup's largest key (f.last).
  const step = (name: BoundedLookup, from: string) => {
    const l = LOOKUPS[name] as Lookup;
    if (!l.c)
      return `SELECT '${name}' AS lookup, f.lo::text AS lo, f.last::text AS last, f.last::text AS hi, NULL AS next FROM ${from}`;
    const end = `greatest(f.lo, ${key(l, "max", `${l.column} < left(f.lo, 1) || chr(1114111)`)})`;
    return `SELECT '${name}' AS lookup, f.lo::text AS lo, f.last::text AS last, h.hi::text AS hi,
        ${key(l, "min", `${l.column} > h.hi`)}::text AS next
      FROM ${from} CROSS JOIN LATERAL (SELECT ${end} AS hi) h`;
  };
  type Step = {
    lookup: BoundedLookup;
    lo: string | null;
    last: string;
    hi: string;
    next: string | null;
  };
  const bounds: Partial<Record<BoundedLookup, [string, string][]>> = {};
  const lookups = Object.keys(LOOKUPS) as BoundedLookup[];
  for (const name of lookups) bounds[name] = [];
  let steps = await queryText<Step>(
    tx,
    lookups
      .map((name) => {
        const l = LOOKUPS[name] as Lookup;
        return step(name, `(SELECT ${key(l, "min")} AS lo, ${key(l, "max")} AS last) f`);
      })
      .join("\n    UNION ALL "),
  );
  while (steps.length > 0) {
    const going: Step[] = [];
    for (const s of steps) {
      if (s.lo === null) continue;
      const ranges = bounds[s.lookup] as [string, string][];
      ranges.push([s.lo, s.hi]);
      if (s.next === null) continue;
      // The last range a lookup is read as reaches to its largest key.
      if (ranges.length === RANGES - 1) ranges.push([s.next, s.last]);
      else going.push(s);
    }
    steps =
      going.length === 0
        ? []
        : await queryText<Step>(
            tx,
            going
              .map((s) =>
                step(
                  s.lookup,
                  `(SELECT ${literal(s.next as string)} AS lo, ${literal(s.last)} AS last) f`,
                ),
              )
              .join("\n    UNION ALL "),
          );
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
