// The smallest and largest key each lookup of the scope can find, read once per run from the
// ends of the indexes the lookups probe. The scope looks every frontier key up in every table
// and stored kind that could hold it (card records by key, origin and refund_of, operations by
// both ids, postings and serviceIds, stored pairs and group members per kind), yet a provider
// gives each kind of record an id of its own shape (card transactions T…, operations g-…,
// serviceIds digits), so one or two of the twenty or so probes per key can find anything. A key
// outside a lookup's bounds can find nothing there and is not probed; one inside is probed as
// before, so the scope is the same whatever the ids look like, only cheaper when their shapes
// differ. Read under the matcher's lock and the change log's (run-match.ts): the tables keep
// these bounds for the run.
//
// Each bound compares in the collation of the column it comes from: the provider tables' keys in
// the database's, the ledger's provider_ref and the stored results' refs in "C" (scope.ts), so
// the bounds and the keys are ordered alike.
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
  // The cash legs of an exact card operation pair, held under the pair's name (CASH_LEG_GROUP).
  cashLegGroup: {
    table: "match_group_members",
    column: "match_id",
    where: `match_id >= '${CASH_LEG_GROUP}' AND match_id < 'exact:card_operation;'`,
    c: true,
  },
} satisfies Record<string, Lookup>;

export type BoundedLookup = keyof typeof LOOKUPS;

/** The keys a lookup holds: its smallest and largest (null when it holds none). */
export type KeyBounds = Record<BoundedLookup, { lo: string | null; hi: string | null }>;

/** Each lookup's smallest and largest key: two index endpoint probes per lookup. */
export async function readKeyBounds(tx: Db): Promise<KeyBounds> {
  const rows = await queryText<{ lookup: BoundedLookup; lo: string | null; hi: string | null }>(
    tx,
    Object.entries(LOOKUPS)
      .map(
        ([name, l]: [string, Lookup]) =>
          `SELECT '${name}' AS lookup, min(${l.column})::text AS lo, max(${l.column})::text AS hi
            FROM ${l.table}${l.where ? ` WHERE ${l.where}` : ""}`,
      )
      .join("\n    UNION ALL "),
  );
  return Object.fromEntries(rows.map((r) => [r.lookup, { lo: r.lo, hi: r.hi }])) as KeyBounds;
}

const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

/**
 * SQL true when key `k` (a text expression in the database's collation) may be held by
 * `lookup`: between its bounds, compared in its column's collation. Never true when the lookup
 * holds nothing.
 */
export function mayHold(bounds: KeyBounds, lookup: BoundedLookup, k: string): string {
  const { lo, hi } = bounds[lookup];
  if (lo === null || hi === null) return "false";
  const key = (LOOKUPS[lookup] as Lookup).c ? `${k} COLLATE "C"` : k;
  return `${key} BETWEEN ${literal(lo)} AND ${literal(hi)}`;
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
  const { lo, hi } = bounds[lookup];
  if (lo === null || hi === null) return "false";
  const [from, to] = REF_RANGE[kind];
  // The refs in [k || from, k || to) meet [lo, hi] when k || to > lo and k || from <= hi.
  return `(${k} || '${to}') COLLATE "C" > ${literal(lo)} AND (${k} || '${from}') COLLATE "C" <= ${literal(hi)}`;
}
