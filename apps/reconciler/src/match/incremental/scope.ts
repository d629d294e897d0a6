// The scope of an incremental match run: the records whose results can differ from the stored
// ones, and the stored matches and breaks that hold them. It starts from what changed (the
// match_changes rows the run took) and what time alone changes (a pending break whose grace
// ended, an authorization that went stale), and grows until it is closed under every way one
// record's result depends on another's:
//   - a provider key and the ledger entries naming it (exact pairs, duplicates, keys, status);
//   - an authorization's chain (origin) and a clearing's refunds (refund_of);
//   - an operation under its operateRecordId and its clientRequestId, and its account postings
//     (serviceId: cash legs);
//   - a stored match group or break and every record it holds (what the records were matched
//     with before, whatever their keys are now);
//   - a card: the records of the card's open and pending breaks, because the tolerant pass
//     proposes between any unmatched entry and provider record of one card.
// Records outside the scope keep their stored results: nothing they depend on changed.
// The stored results' refs and the ledger's ids are COLLATE "C", the provider tables' keys are
// not: every comparison across the two names the collation of the index it should use.
//
//   scope_keys     provider keys: txnOrderNo, operateRecordId, clientRequestId, serviceId
//   scope_entries  ledger entry ids
//   scope_groups   stored match groups (match_id) holding a record of the scope
//   scope_breaks   stored breaks (break_id) about a record of the scope
import type { ResolvedMatchOptions } from "../match-options";
import { literals, type Statement } from "../statement";
import { graceEnd } from "../unchanged-run";
import type { SourceTable } from "./source-tables";
import type { StoredKind } from "./stored-kinds";

/** The scope's tables, filled with what changed and what time changed since `lastAsOf`. */
export function scopeSeeds(o: ResolvedMatchOptions, lastAsOf: Date): Statement[] {
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
    ].map((table) => ({
      name: "scope table",
      text: `CREATE TEMP TABLE ${table} ON COMMIT DROP`,
    })),
    {
      name: "scope: changed keys",
      text: "INSERT INTO scope_keys SELECT DISTINCT ref, 0 FROM run_changes WHERE kind = 'key'",
    },
    {
      name: "scope: changed entries",
      text: "INSERT INTO scope_entries SELECT DISTINCT ref, 0 FROM run_changes WHERE kind = 'entry'",
    },
    {
      // Time alone: pending breaks whose grace period ended, authorizations that went stale.
      name: "scope: grace ended",
      text: `INSERT INTO scope_breaks SELECT break_id, 0 FROM breaks
          WHERE status = 'pending' AND ${graceEnd(o)} <= ${v.asOf}`,
    },
    {
      name: "scope: gone stale",
      text: `INSERT INTO scope_keys SELECT txn_order_no, 0 FROM card_transactions
          WHERE txn_type = 'AUTHORIZATION' AND txn_status = 'P'
            AND transaction_time >= ${last} - ${v.stale} AND transaction_time < ${v.asOf} - ${v.stale}
        ON CONFLICT DO NOTHING`,
    },
  ];
}

/**
 * `select` over each row of `outer` (a frontier table aliased s, with its round) and the rows of
 * `table` (aliased x) that `where` finds by an index. The lookup is a LATERAL subquery behind
 * OFFSET 0, so the planner keeps it one index probe per frontier row: the frontier is small, but
 * the planner cannot know it (or the stored tables are not yet analysed) and would otherwise scan
 * or hash a million rows per lookup.
 */
export function probe(opts: {
  outer: string;
  round: number | null;
  table: string;
  where: string;
  select: string;
}): string {
  const round = opts.round === null ? "" : ` WHERE s.round = ${opts.round}`;
  return `SELECT ${opts.select} FROM ${opts.outer} CROSS JOIN LATERAL (SELECT * FROM ${opts.table} x
      WHERE ${opts.where} OFFSET 0) x${round}`;
}

/** The arms that are set, as one UNION (empty when none is). */
const union = (arms: readonly (string | false)[]) =>
  arms.filter((arm): arm is string => arm !== false).join("\n        UNION ");

/**
 * Round `r` of growing the scope: from the keys and entries round r-1 found (round = r), the
 * keys and entries they reach (round r + 1) and the stored groups and breaks holding them
 * (round r, taken apart in the same round). Repeated until a round finds no key or entry;
 * every statement only adds, so the rounds end. Every lookup is an index probe; lookups into the
 * stored results are made only for the kinds they hold (`kinds`), lookups into the source
 * tables only into those with rows (`tables`).
 */
export function scopeRound(
  r: number,
  kinds: ReadonlySet<StoredKind>,
  tables: ReadonlySet<SourceTable>,
): Statement[] {
  const next = r + 1;
  const has = (table: SourceTable) => tables.has(table);
  const byKey = (table: SourceTable, where: string, select: string) =>
    has(table) &&
    probe({ outer: "scope_keys s", round: r, table, where, select: `${select}, ${next}` });
  const byEntry = (table: SourceTable, where: string, select: string) =>
    has(table) &&
    probe({ outer: "scope_entries s", round: r, table, where, select: `${select}, ${next}` });
  const keysOfRecords = union([
    has("card_transactions") &&
      `SELECT v.k, ${next} FROM (${byKey("card_transactions", "x.txn_order_no = s.k", "x.origin_txn_order_no AS a, x.origin_txn_order_no_for_refund AS b")}) t
          CROSS JOIN LATERAL (VALUES (t.a), (t.b)) v(k) WHERE v.k IS NOT NULL`,
    byKey("card_transactions", "x.origin_txn_order_no = s.k", "x.txn_order_no"),
    byKey("card_transactions", "x.origin_txn_order_no_for_refund = s.k", "x.txn_order_no"),
    byKey("operate_records", "x.operate_record_id = s.k", "x.client_request_id"),
    byKey("operate_records", "x.client_request_id = s.k", "x.operate_record_id"),
    byEntry("ledger_entries", "x.entry_id = s.entry_id", 'x.provider_ref COLLATE "default"'),
  ]);
  const cards = union([
    byKey("card_transactions", "x.txn_order_no = s.k AND x.card_id IS NOT NULL", "x.card_id"),
    byEntry("ledger_entries", "x.entry_id = s.entry_id AND x.card_id IS NOT NULL", "x.card_id"),
  ]);
  const entriesOfKeys = byKey("ledger_entries", 'x.provider_ref = s.k COLLATE "C"', "x.entry_id");
  const statements: (Statement | false)[] = [
    keysOfRecords !== "" && {
      name: "scope: keys of records",
      text: `INSERT INTO scope_keys (k, round)
        ${keysOfRecords}
        ON CONFLICT DO NOTHING`,
    },
    entriesOfKeys !== false && {
      name: "scope: entries of keys",
      text: `INSERT INTO scope_entries
        ${entriesOfKeys}
        ON CONFLICT DO NOTHING`,
    },
    {
      // The stored groups and breaks holding a record of the frontier, by their records' keys.
      name: "scope: stored groups",
      text: `INSERT INTO scope_groups
        ${heldBy("match_group_members", "match_id", r, kinds, tables)}
        ${kinds.has("card_operation") ? `UNION SELECT 'exact:card_operation:' || k, ${r} FROM scope_keys WHERE round = ${r}` : ""}
        ON CONFLICT DO NOTHING`,
    },
    {
      name: "scope: stored breaks",
      text: `INSERT INTO scope_breaks
        ${heldBy("break_records", "break_id", r, kinds, tables)}
        UNION ${probe({ outer: "scope_keys s", round: r, table: "breaks", where: "x.provider_ref = s.k AND x.status <> 'resolved'", select: `x.break_id, ${r}` })}
        UNION ${probe({ outer: "scope_entries s", round: r, table: "breaks", where: `x.entry_id = s.entry_id COLLATE "default" AND x.status <> 'resolved'`, select: `x.break_id, ${r}` })}
        ON CONFLICT DO NOTHING`,
    },
    cards !== "" && {
      // The tolerant pass's reach: the unmatched records (open and pending breaks) of every card
      // the frontier touches.
      name: "scope: breaks of the cards",
      text: `WITH cards AS (
          ${cards}
        )
        INSERT INTO scope_breaks
        SELECT DISTINCT b.break_id, ${r} FROM break_cards b JOIN cards c ON c.card_id = b.card_id
        ON CONFLICT DO NOTHING`,
    },
    {
      // Every record of the groups and breaks found this round joins the scope.
      name: "scope: records of stored results",
      text: `WITH held AS (
          ${probe({ outer: "scope_groups s", round: r, table: "match_group_members", where: "x.match_id = s.match_id", select: "x.side, x.record_kind, x.record_ref" })}
          UNION ALL ${probe({ outer: "scope_breaks s", round: r, table: "break_records", where: "x.break_id = s.break_id", select: "x.side, x.record_kind, x.record_ref" })}
        ), stored AS (
          ${probe({ outer: "scope_breaks s", round: r, table: "breaks", where: "x.break_id = s.break_id", select: "x.entry_id, x.provider_ref" })}
        ), entries AS (
          INSERT INTO scope_entries
          SELECT record_ref, ${next} FROM held WHERE side = 'ledger'
          UNION SELECT entry_id, ${next} FROM stored WHERE entry_id IS NOT NULL
          ON CONFLICT DO NOTHING
        )
        INSERT INTO scope_keys
        SELECT CASE record_kind WHEN 'fee' THEN regexp_replace(record_ref, '#[^#]*$', '')
            WHEN 'account' THEN split_part(record_ref, ':', 1) ELSE record_ref END COLLATE "default",
          ${next}
          FROM held WHERE side = 'provider'
        ${has("account_transactions") ? `UNION ${probe({ outer: "held s", round: null, table: "account_transactions", where: `x.acnt_txn_id = s.record_ref COLLATE "default" AND s.side = 'cash'`, select: `x.service_id, ${next}` })}` : ""}
        UNION SELECT provider_ref, ${next} FROM stored WHERE provider_ref IS NOT NULL
        ON CONFLICT DO NOTHING`,
    },
  ];
  return statements.filter((s): s is Statement => s !== false);
}

/**
 * The rows of `table` (match_group_members or break_records) holding a record of round `r`'s
 * frontier, as (`id`, r): ledger entries by their id, provider records by their key
 * (recordOfKey), cash legs by the account postings of a serviceId; provider kinds the stored
 * results do not hold (`kinds`) are not looked up, nor cash legs without account postings. Each is one index probe per frontier row,
 * written as a LATERAL subquery with OFFSET 0 so the planner keeps it so: the stored tables'
 * statistics are often stale (filled by the last run, not yet analysed), and with them the
 * planner looped the other way round, over the whole table for every row.
 */
function heldBy(
  table: string,
  id: string,
  r: number,
  kinds: ReadonlySet<StoredKind>,
  tables: ReadonlySet<SourceTable>,
): string {
  const held = (outer: string, where: string) =>
    probe({ outer, round: r, table, where, select: `x.${id}, ${r}` });
  const lookup = (kind: StoredKind) =>
    kind === "cash"
      ? held(
          `scope_keys s CROSS JOIN LATERAL (SELECT acnt_txn_id FROM account_transactions a
            WHERE a.service_id = s.k OFFSET 0) a`,
          `x.side = 'cash' AND x.record_kind = 'account_transaction'
            AND x.record_ref = a.acnt_txn_id COLLATE "C"`,
        )
      : held("scope_keys s", `x.side = 'provider' AND ${recordOfKey(kind)}`);
  return [
    held(
      "scope_entries s",
      "x.side = 'ledger' AND x.record_kind = 'ledger_entry' AND x.record_ref = s.entry_id",
    ),
    // Cash legs are found through the account postings: none without them.
    ...[...kinds].filter((k) => k !== "cash" || tables.has("account_transactions")).map(lookup),
  ].join("\n    UNION ");
}

/**
 * A stored provider record (alias x: record_kind, record_ref) of `kind` under the scope key s.k:
 * card records and operations by their ref; fees and account items, whose refs are
 * <key>#<fee type> and <serviceId>:<currency>, by a range of the key (one index range scan).
 */
export function recordOfKey(kind: Exclude<StoredKind, "cash">): string {
  const range = (lo: string, hi: string) =>
    `x.record_ref >= (s.k || '${lo}') COLLATE "C" AND x.record_ref < (s.k || '${hi}') COLLATE "C"`;
  const ref =
    kind === "fee"
      ? range("#", "$")
      : kind === "account"
        ? range(":", ";")
        : `x.record_ref = s.k COLLATE "C"`;
  return `x.record_kind = '${kind}' AND ${ref}`;
}

/** Keys and entries round `r` found for the next (none ends the growing), and all of them. */
export const frontierSize = (r: number) => `SELECT sum(found) AS found, sum(n) AS records FROM (
  SELECT count(*) FILTER (WHERE round = ${r + 1}) AS found, count(*) AS n FROM scope_keys
  UNION ALL SELECT count(*) FILTER (WHERE round = ${r + 1}), count(*) FROM scope_entries) x`;

/**
 * The cards of the stored open and pending breaks' records (provider card transactions and
 * ledger entries with a card): the tolerant pass's candidates. Built once per run.
 */
export const breakCards: Statement = {
  name: "scope: cards of breaks",
  text: `CREATE TEMP TABLE break_cards ON COMMIT DROP AS
    ${probe({
      outer: "break_records s",
      round: null,
      table: "card_transactions",
      where: `s.side = 'provider' AND s.record_kind = 'card_transaction'
        AND x.txn_order_no = s.record_ref COLLATE "default" AND x.card_id IS NOT NULL`,
      select: "s.break_id, x.card_id",
    })}
    UNION ${probe({
      outer: "break_records s",
      round: null,
      table: "ledger_entries",
      where: "s.side = 'ledger' AND x.entry_id = s.record_ref AND x.card_id IS NOT NULL",
      select: "s.break_id, x.card_id",
    })}`,
};
