// The scope of an incremental match run: the records whose results can differ from the stored
// ones, and the stored matches and breaks that hold them. It starts from what changed (the
// match_changes rows the run took) and what time alone changes (a pending break whose grace
// ended, an authorization that went stale), and grows until it is closed under every way one
// record's result depends on another's:
//   - a provider key and the ledger entries naming it (exact pairs, duplicates, keys, status);
//   - an authorization's chain (origin) and a clearing's refunds (refund_of), where the key a
//     record names holds something (REFERENCED_REACH);
//   - an operation under its operateRecordId and its clientRequestId, and its account postings
//     (serviceId: cash legs);
//   - a stored match group or break and every record it holds (what the records were matched
//     with before, whatever their keys are now);
//   - a tolerant candidate: the records of the open and pending breaks holding a record of its
//     card and currency whose amount is within the tolerance of its own (as the scope record is
//     now, if it may be a tolerant candidate, and as the stored breaks last saw it), because
//     the tolerant pass proposes between an unmatched entry and provider record of one card
//     and currency with amounts that close (open-breaks.ts, TOLERANT_REACH).
// Records outside the scope keep their stored results: nothing they depend on changed.
// The stored results' refs and the ledger's ids are COLLATE "C", the provider tables' keys are
// not: every comparison across the two names the collation of the index it should use.
//
//   scope_keys     provider keys: txnOrderNo, operateRecordId, clientRequestId, serviceId
//   scope_entries  ledger entry ids
//   scope_groups   stored match groups (match_id) holding a record of the scope
//   scope_breaks   stored breaks (break_id) about a record of the scope
// The stored breaks are found in open_break_keys (open-breaks.ts), the groups by index probes.
import { CLOCKED_CLASSES, graceEnd } from "../break-classes";
import type { ResolvedMatchOptions } from "../match-options";
import { literals, type Statement } from "../statement";
import type { CopiedColumns } from "./copied-columns";
import {
  type BoundedLookup,
  CASH_LEG_GROUP,
  type KeyBounds,
  mayHold,
  mayHoldKind,
  REF_RANGE,
} from "./key-bounds";
import { breakRound, keyOfRecord } from "./open-breaks";
import { addNew, probe } from "./scope-sql";
import type { SourceTable } from "./source-tables";
import type { StoredKind } from "./stored-kinds";

/** The scope's tables, filled with what changed and what time changed since `lastAsOf`. */
export function scopeSeeds(
  o: ResolvedMatchOptions,
  lastAsOf: Date,
  columns: CopiedColumns,
): Statement[] {
  const v = literals(o);
  const last = `'${lastAsOf.toISOString()}'::timestamptz`;
  return [
    // `round`: the round of growing that found the row; a round looks only at the rows the
    // round before it found (its frontier), so each row is looked at once.
    ...[
      "scope_keys (k text PRIMARY KEY, round integer NOT NULL)",
      'scope_entries (entry_id text COLLATE "C" PRIMARY KEY, round integer NOT NULL)',
      "scope_groups (match_id text PRIMARY KEY, round integer NOT NULL)",
      'scope_breaks (break_id text COLLATE "C" PRIMARY KEY, round integer NOT NULL)',
      // The tolerant candidates among each round's frontier records: card, currency and amount
      // without sign (the tolerant pass's reach; open-breaks.ts).
      "scope_cards (card_id text, currency text, amount numeric, round integer NOT NULL)",
    ].map((table) => ({
      name: "scope table",
      text: `CREATE TEMP TABLE ${table} ON COMMIT DROP`,
    })),
    // The rows of the scope's card records and ledger entries, read once, when their key or
    // entry is a round's frontier: each round reads what it needs of them as it inserts them,
    // and they become the run's copies of card_transactions and ledger_entries
    // (scoped-tables.ts) without being looked up again.
    ...(
      [
        ["scope_card_rows", "card_transactions"],
        ["scope_ledger_rows", "ledger_entries"],
      ] as const
    ).map(([table, source]) => ({
      name: "scope table",
      text: `CREATE TEMP TABLE ${table} ON COMMIT DROP AS SELECT ${columns.of(source)} FROM ${source} WHERE false`,
    })),
    // The log (change-log.ts) holds a change once per statement that made it. In key order,
    // byte by byte (a third cheaper to sort than under the database's collation, the same order
    // for the provider's ASCII ids): each insert then lands on the key index's last page
    // instead of a page anywhere in it.
    {
      name: "scope: changed keys",
      text: `INSERT INTO scope_keys SELECT DISTINCT ref COLLATE "C", 0 FROM match_changes
        WHERE kind = 'key' ORDER BY 1`,
    },
    {
      name: "scope: changed entries",
      text: `INSERT INTO scope_entries SELECT DISTINCT ref COLLATE "C", 0 FROM match_changes
        WHERE kind = 'entry' ORDER BY 1`,
    },
    {
      // Time alone: pending breaks whose grace period ended, records a class's clock opened
      // a break on (an authorization that went stale).
      name: "scope: grace ended",
      text: `INSERT INTO scope_breaks SELECT break_id, 0 FROM breaks
          WHERE status = 'pending' AND ${graceEnd(v)} <= ${v.asOf}`,
    },
    ...CLOCKED_CLASSES.map((c) => ({
      name: `scope: ${c.name} by time`,
      text: addNew("scope_keys", c.clock.keysReached(v, last)),
    })),
  ];
}

/** The arms that are set, as one UNION (empty when none is). */
const union = (arms: readonly (string | false)[]) =>
  arms.filter((arm): arm is string => arm !== false).join("\n        UNION ");

/**
 * What the stored results and the source tables hold, read once per run: lookups into what
 * holds nothing are left out.
 */
export interface ScopeReach {
  /** Provider kinds the stored results hold (stored-kinds.ts). */
  kinds: ReadonlySet<StoredKind>;
  /** Source tables with rows (source-tables.ts). */
  tables: ReadonlySet<SourceTable>;
  /** Whether any match group (or cash leg) is stored. */
  groups: boolean;
  /** The keys each lookup can find (key-bounds.ts). */
  bounds: KeyBounds;
}

/**
 * Round `r` of growing the scope: from the keys and entries round r-1 found (round = r), the
 * keys and entries they reach (round r + 1) and the stored groups and breaks holding them
 * (round r, taken apart in the same round). Repeated until a round finds no key or entry;
 * every statement only adds, so the rounds end. Every lookup into a source table or the stored
 * groups is an index probe; the breaks are found in open_break_keys (open-breaks.ts).
 */
export function scopeRound(
  r: number,
  reach: ScopeReach,
  tolerance: string,
  columns: CopiedColumns,
): Statement[] {
  const next = r + 1;
  const has: Has = (table) => reach.tables.has(table);
  const { bounds } = reach;
  const byKey = (table: SourceTable, lookup: BoundedLookup, where: string, select: string) =>
    has(table) &&
    probe({
      outer: "scope_keys s",
      round: r,
      table,
      where,
      select: `${select}, ${next}`,
      guard: mayHold(bounds, lookup, "s.k"),
    });
  const rows = frontierRows(r, has, bounds, columns);
  // The entries booking the frontier's keys, probed once: they join the scope (next round) and
  // tell which card records an entry books (frontierCards).
  const keyEntries = has("ledger_entries") && [
    `key_entries AS (${probe({
      outer: "scope_keys s",
      round: r,
      table: "ledger_entries",
      where: 'x.provider_ref = s.k COLLATE "C"',
      select: 'x.entry_id, x.provider_ref COLLATE "default" AS k, x.kind, x.fee_type',
      guard: mayHold(bounds, "entryRef", "s.k"),
    })})`,
    `entries AS (${addNew("scope_entries", `SELECT entry_id, ${next} FROM key_entries`)})`,
  ];
  const cards = frontierCards(r, has, bounds);
  const keysOfRecords = union([
    has("card_transactions") &&
      `SELECT k, ${next} FROM (SELECT DISTINCT v.k FROM card_rows t
          CROSS JOIN LATERAL (VALUES (t.a), (t.b)) v(k)
          WHERE v.k IS NOT NULL AND v.k NOT IN (SELECT k FROM scope_keys)) v
        WHERE ${namesAnything("v.k", has, bounds)}`,
    byKey("card_transactions", "cardOrigin", "x.origin_txn_order_no = s.k", "x.txn_order_no"),
    byKey(
      "card_transactions",
      "cardRefundOf",
      "x.origin_txn_order_no_for_refund = s.k",
      "x.txn_order_no",
    ),
    byKey("operate_records", "operation", "x.operate_record_id = s.k", "x.client_request_id"),
    byKey(
      "operate_records",
      "operationRequest",
      "x.client_request_id = s.k",
      "x.operate_record_id",
    ),
    has("ledger_entries") && `SELECT k, ${next} FROM ledger_rows`,
  ]);
  const ctes = [
    ...rows,
    ...(keyEntries || []),
    ...(cards === "" ? [] : [`cards AS (INSERT INTO scope_cards ${cards})`]),
  ];
  const statements: (Statement | false)[] = [
    keysOfRecords !== "" && {
      name: "scope: keys of records",
      text: `${ctes.length > 0 ? `WITH ${ctes.join(",\n      ")}` : ""}
      ${addNew("scope_keys", keysOfRecords)}`,
    },
    ...(reach.groups ? groupRound(r, reach) : []),
    ...breakRound(r, tolerance),
  ];
  return statements.filter((s): s is Statement => s !== false);
}

type Has = (table: SourceTable) => boolean;

// REFERENCED_REACH: a key that a scope card record names as its origin or refund_of (an
// authorization, the clearing it refunds) joins the scope only when something the run reads
// sits under it: a card record or operation of that key, an entry booking it, an account
// posting or serviceId of it, or an open break holding it. The rules relating a record to the
// one it names read the named record or an entry on its key: a chain the authorization
// (authorization-chain.ts), a net refund an entry on the clearing and whether the refund has an
// entry of its own (refund-net.ts; the refund's entries join with its key, which is in the
// scope with the clearing's through refund_of), an orphan
// refund the open clearing and an orphan at the provider whether the original exists at all
// (orphan-refunds.ts; incremental.test.ts's late refund fails without the card lookup), a
// second entry on an authorization the entry (duplicates.ts). A stored group holds records and
// entries, looked up themselves (one deleted since the last run is a change, in the scope from
// round 0). Any other key is a dead end (most clearings name an authorization the provider
// never sent): the records naming it depend on nothing of each other through it, and looking
// it up by key, origin, refund_of, entry and stored pair would cost a round of lookups that
// find nothing.
/** True (SQL) when something the run reads sits under key `k` (REFERENCED_REACH). */
function namesAnything(k: string, has: Has, bounds: KeyBounds): string {
  const exists = (table: SourceTable, lookup: BoundedLookup, where: string) =>
    has(table) &&
    `(${mayHold(bounds, lookup, k)} AND EXISTS (SELECT 1 FROM ${table} x WHERE ${where} OFFSET 0))`;
  return [
    exists("card_transactions", "card", `x.txn_order_no = ${k}`),
    exists("ledger_entries", "entryRef", `x.provider_ref = ${k} COLLATE "C"`),
    exists("operate_records", "operation", `x.operate_record_id = ${k}`),
    exists("operate_records", "operationRequest", `x.client_request_id = ${k}`),
    exists("account_transactions", "posting", `x.service_id = ${k}`),
    exists("service_ids", "serviceId", `x.service_id = ${k}`),
    `${k} IN (SELECT k FROM open_break_keys WHERE k IS NOT NULL)`,
  ]
    .filter((arm): arm is string => arm !== false)
    .join("\n          OR ");
}

/**
 * The frontier's card records and entries, kept (scope_card_rows, scope_ledger_rows) and read
 * as they are inserted, as CTEs card_rows (k, a, b: its origins, card_id, settle currency and
 * amount) and ledger_rows (k: the key it books, kind, fee_type, card_id, currency, amount); a
 * table without rows has none. Amounts without sign (TOLERANT_REACH).
 */
function frontierRows(r: number, has: Has, bounds: KeyBounds, columns: CopiedColumns): string[] {
  const rows = [
    has("card_transactions") &&
      `card_rows AS (INSERT INTO scope_card_rows ${probe({ outer: "scope_keys s", round: r, table: "card_transactions", where: "x.txn_order_no = s.k", select: columns.of("card_transactions", "x"), guard: mayHold(bounds, "card", "s.k") })}
        RETURNING txn_order_no AS k, origin_txn_order_no AS a, origin_txn_order_no_for_refund AS b,
          card_id, settle_currency AS currency, abs(settle_amount) AS amount)`,
    has("ledger_entries") &&
      `ledger_rows AS (INSERT INTO scope_ledger_rows ${probe({ outer: "scope_entries s", round: r, table: "ledger_entries", where: "x.entry_id = s.entry_id", select: columns.of("ledger_entries", "x") })}
        RETURNING provider_ref COLLATE "default" AS k, kind, fee_type, card_id, currency,
          abs(amount) AS amount)`,
  ];
  return rows.filter((cte): cte is string => cte !== false);
}

// TOLERANT_REACH: which scope records bring their card's breaks in, and which of them. The
// tolerant pass (passes/tolerant.ts) pairs card_transaction leftovers, an entry and a provider
// item of one card, that no earlier pass took, and the earlier passes take every record whose
// key the other side has:
//   - a card record with an entry of kind card_transaction and no fee type on its key is
//     paired with it: exactly (exact.ts), in a composite with the entry (refund-net.ts), or by
//     key (key-mismatch.ts); the entry's key names no other card_transaction item;
//   - an entry of kind card_transaction naming a card record the provider has is taken as a
//     status question (status-mismatch.ts, F or P), as moving no money (no-money.ts, S), as a
//     second entry on the key (duplicates.ts), or earlier in a match or mismatch.
// Only the others (an entry naming no card record, a card record nothing books, and entries
// of other kinds, which the tolerant pass never pairs, not at all) can be proposed, and only
// they bring breaks in: those holding a record of their card and currency whose amount is
// within the tolerance of theirs, compared without sign (||a| - |b|| <= |a - b|, so this only
// widens). The pass's time window is left out (break records keep no time), which also only
// widens. A record leaving a stored break brings in what that break saw of it
// (open-breaks.ts), whatever it is now. The pass assigns closest first, so a change can move
// proposals any number of steps away along records within the tolerance of each other (an
// entry losing its record takes its next, whose entry takes its next...): the records a
// break brings in are a later round's frontier and bring in their own, so the scope holds
// the whole chain. A pass order or rule that changes this must change it
// here too: incremental-tolerant.test.ts compares such runs with full ones.

/**
 * The frontier's records that may be tolerant candidates (TOLERANT_REACH), as (card_id,
 * currency, amount without sign, r) rows over the CTEs of scopeRound: a card record is one when
 * no entry booking its key (key_entries: the entries of every frontier key) books it as a card
 * transaction; an entry when the provider has no card record of its key, looked for in the same
 * frontier first (NOT IN: one hashed set), then by one index probe per entry left (OFFSET 0
 * keeps each NOT EXISTS a probe, not an anti-join over the table).
 */
function frontierCards(r: number, has: Has, bounds: KeyBounds): string {
  const bookedAsCard = `kind = 'card_transaction' AND coalesce(fee_type, '') = ''`;
  return union([
    has("card_transactions") &&
      `SELECT card_id, currency, amount, ${r} FROM card_rows t${
        has("ledger_entries")
          ? ` WHERE t.k NOT IN (SELECT k FROM key_entries WHERE ${bookedAsCard})`
          : ""
      }`,
    has("ledger_entries") &&
      `SELECT card_id, currency, amount, ${r} FROM ledger_rows l WHERE l.card_id IS NOT NULL AND l.kind = 'card_transaction'${
        has("card_transactions")
          ? ` AND l.k NOT IN (SELECT k FROM card_rows)
            AND NOT (${mayHold(bounds, "card", "l.k")}
              AND EXISTS (SELECT 1 FROM card_transactions t WHERE t.txn_order_no = l.k OFFSET 0))`
          : ""
      }`,
  ]);
}

/**
 * Round `r`'s statements about stored match groups: the groups holding a key or entry of the
 * frontier (heldBy, and the cash legs of an exact card operation pair, whose group is named
 * after the pair), then every record of the groups found.
 */
function groupRound(r: number, reach: ScopeReach): Statement[] {
  const next = r + 1;
  const cash = reach.tables.has("account_transactions")
    ? `UNION ${probe({ outer: "held s", round: null, table: "account_transactions", where: `x.acnt_txn_id = s.record_ref COLLATE "default" AND s.side = 'cash'`, select: `x.service_id, ${next}` })}`
    : "";
  return [
    {
      name: "scope: stored groups",
      text: addNew(
        "scope_groups",
        `${heldBy(r, reach)}
        ${reach.kinds.has("card_operation") ? `UNION SELECT '${CASH_LEG_GROUP}' || k, ${r} FROM scope_keys WHERE round = ${r} AND ${mayHold(reach.bounds, "cashLegGroup", `'${CASH_LEG_GROUP}' || k`)}` : ""}`,
      ),
    },
    {
      name: "scope: records of groups",
      text: `WITH held AS (
          ${probe({ outer: "scope_groups s", round: r, table: "match_group_members", where: "x.match_id = s.match_id", select: "x.side, x.record_kind, x.record_ref" })}
        ), entries AS (
          ${addNew("scope_entries", `SELECT record_ref, ${next} FROM held WHERE side = 'ledger'`)}
        )
        ${addNew(
          "scope_keys",
          // Distinct: the fees of one record share its key.
          `SELECT DISTINCT ${keyOfRecord("held")}, ${next} FROM held WHERE side = 'provider' ${cash}`,
        )}`,
    },
  ];
}

/**
 * The stored match groups (match_group_members) holding a record of round `r`'s frontier, as
 * (match_id, r): ledger entries by their id, provider records by their key (recordOfKey), cash
 * legs by the account postings of a serviceId; provider kinds the stored results do not hold
 * are not looked up, nor cash legs without account postings. Each is one index probe per
 * frontier row, written as a LATERAL subquery with OFFSET 0 so the planner keeps it so: the
 * stored tables' statistics are often stale (filled by the last run, not yet analysed), and
 * with them the planner looped the other way round, over the whole table for every row.
 */
function heldBy(r: number, reach: ScopeReach): string {
  const held = (outer: string, where: string, guard?: string) =>
    probe({
      outer,
      round: r,
      table: "match_group_members",
      where,
      select: `x.match_id, ${r}`,
      ...(guard === undefined ? {} : { guard }),
    });
  const lookup = (kind: StoredKind) =>
    kind === "cash"
      ? held(
          `scope_keys s CROSS JOIN LATERAL (SELECT acnt_txn_id FROM account_transactions a
            WHERE a.service_id = s.k OFFSET 0) a`,
          `x.side = 'cash' AND x.record_kind = 'account_transaction'
            AND x.record_ref = a.acnt_txn_id COLLATE "C"`,
          mayHold(reach.bounds, "posting", "s.k"),
        )
      : held(
          "scope_keys s",
          `x.side = 'provider' AND ${recordOfKey(kind)}`,
          mayHoldKind(reach.bounds, `member:${kind}`, kind, "s.k"),
        );
  return [
    held(
      "scope_entries s",
      "x.side = 'ledger' AND x.record_kind = 'ledger_entry' AND x.record_ref = s.entry_id",
      mayHold(reach.bounds, "member:ledger", "s.entry_id"),
    ),
    // Cash legs are found through the account postings: none without them.
    ...[...reach.kinds]
      .filter((k) => k !== "cash" || reach.tables.has("account_transactions"))
      .map(lookup),
  ].join("\n    UNION ");
}

/**
 * A stored provider record (alias x: record_kind, record_ref) of `kind` under the scope key s.k:
 * card records and operations by their ref; fees and account items, whose refs are
 * <key>#<fee type> and <serviceId>:<currency>, by a range of the key (one index range scan).
 */
export function recordOfKey(kind: Exclude<StoredKind, "cash">): string {
  const range = ([lo, hi]: readonly [string, string]) =>
    `x.record_ref >= (s.k || '${lo}') COLLATE "C" AND x.record_ref < (s.k || '${hi}') COLLATE "C"`;
  const ref =
    kind === "fee" || kind === "account"
      ? range(REF_RANGE[kind])
      : `x.record_ref = s.k COLLATE "C"`;
  return `x.record_kind = '${kind}' AND ${ref}`;
}

/** Keys and entries round `r` found for the next (none ends the growing), and all of them. */
export const frontierSize = (r: number) => `SELECT sum(found) AS found, sum(n) AS records FROM (
  SELECT count(*) FILTER (WHERE round = ${r + 1}) AS found, count(*) AS n FROM scope_keys
  UNION ALL SELECT count(*) FILTER (WHERE round = ${r + 1}), count(*) FROM scope_entries) x`;
