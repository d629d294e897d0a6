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
//
//   scope_keys     provider keys: txnOrderNo, operateRecordId, clientRequestId, serviceId
//   scope_entries  ledger entry ids
//   scope_groups   stored match groups (match_id) holding a record of the scope
//   scope_breaks   stored breaks (break_id) about a record of the scope
import type { ResolvedMatchOptions } from "../match-options";
import { literals, type Statement } from "../statement";
import { graceEnd } from "../unchanged-run";

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
 * Round `r` of growing the scope: from the keys and entries round r-1 found (round = r), the
 * keys and entries they reach (round r + 1) and the stored groups and breaks holding them
 * (round r, taken apart in the same round). Repeated until a round finds no key or entry;
 * every statement only adds, so the rounds end. Every lookup is by an index.
 */
export function scopeRound(r: number): Statement[] {
  const keys = `(SELECT k FROM scope_keys WHERE round = ${r})`;
  const entries = `(SELECT entry_id FROM scope_entries WHERE round = ${r})`;
  const next = r + 1;
  return [
    {
      name: "scope: keys of records",
      text: `INSERT INTO scope_keys (k, round)
        SELECT x, ${next} FROM card_transactions t
          CROSS JOIN LATERAL (VALUES (t.origin_txn_order_no), (t.origin_txn_order_no_for_refund)) v(x)
          WHERE t.txn_order_no IN ${keys} AND x IS NOT NULL
        UNION SELECT txn_order_no, ${next} FROM card_transactions WHERE origin_txn_order_no IN ${keys}
        UNION SELECT txn_order_no, ${next} FROM card_transactions WHERE origin_txn_order_no_for_refund IN ${keys}
        UNION SELECT client_request_id, ${next} FROM operate_records WHERE operate_record_id IN ${keys}
        UNION SELECT operate_record_id, ${next} FROM operate_records WHERE client_request_id IN ${keys}
        UNION SELECT provider_ref COLLATE "default", ${next} FROM ledger_entries WHERE entry_id IN ${entries}
        ON CONFLICT DO NOTHING`,
    },
    {
      name: "scope: entries of keys",
      text: `INSERT INTO scope_entries SELECT entry_id, ${next} FROM ledger_entries
        WHERE provider_ref IN (SELECT k COLLATE "C" FROM scope_keys WHERE round = ${r})
        ON CONFLICT DO NOTHING`,
    },
    {
      // The stored groups and breaks holding a record of the frontier. A fee or an account item
      // is found under its own ref (<key>#<fee type>, <serviceId>:<currency>) by a range of the key.
      name: "scope: stored groups and breaks",
      text: `WITH refs AS (
          SELECT 'ledger' AS side, 'ledger_entry' AS kind, entry_id AS ref FROM scope_entries
            WHERE round = ${r}
          UNION ALL SELECT 'provider', x.kind, k COLLATE "C" FROM scope_keys
            CROSS JOIN (VALUES ('card_transaction'), ('card_operation')) x(kind) WHERE round = ${r}
          UNION ALL SELECT 'cash', 'account_transaction', a.acnt_txn_id COLLATE "C"
            FROM account_transactions a WHERE a.service_id IN ${keys}
        ), ranges AS (
          SELECT 'fee' AS kind, k || '#' AS lo, k || '$' AS hi FROM scope_keys WHERE round = ${r}
          UNION ALL SELECT 'account', k || ':', k || ';' FROM scope_keys WHERE round = ${r}
        ), groups AS (
          INSERT INTO scope_groups
          SELECT m.match_id, ${r} FROM refs r JOIN match_group_members m
            ON m.side = r.side AND m.record_kind = r.kind AND m.record_ref = r.ref
          UNION SELECT m.match_id, ${r} FROM ranges r JOIN match_group_members m
            ON m.side = 'provider' AND m.record_kind = r.kind
              AND m.record_ref >= r.lo COLLATE "C" AND m.record_ref < r.hi COLLATE "C"
          UNION SELECT 'exact:card_operation:' || k, ${r} FROM scope_keys WHERE round = ${r}
          ON CONFLICT DO NOTHING
        )
        INSERT INTO scope_breaks
        SELECT b.break_id, ${r} FROM refs r JOIN break_records b
          ON b.side = r.side AND b.record_kind = r.kind AND b.record_ref = r.ref
        UNION SELECT b.break_id, ${r} FROM ranges r JOIN break_records b
          ON b.side = 'provider' AND b.record_kind = r.kind
            AND b.record_ref >= r.lo COLLATE "C" AND b.record_ref < r.hi COLLATE "C"
        UNION SELECT break_id, ${r} FROM breaks WHERE status <> 'resolved' AND provider_ref IN ${keys}
        UNION SELECT break_id, ${r} FROM breaks WHERE status <> 'resolved' AND entry_id IN ${entries}
        ON CONFLICT DO NOTHING`,
    },
    {
      // The tolerant pass's reach: the unmatched records (open and pending breaks) of every card
      // the frontier touches.
      name: "scope: breaks of the cards",
      text: `WITH cards AS (
          SELECT card_id FROM card_transactions WHERE txn_order_no IN ${keys} AND card_id IS NOT NULL
          UNION SELECT card_id FROM ledger_entries WHERE entry_id IN ${entries} AND card_id IS NOT NULL
        )
        INSERT INTO scope_breaks
        SELECT b.break_id, ${r} FROM break_cards b WHERE b.card_id IN (SELECT card_id FROM cards)
        ON CONFLICT DO NOTHING`,
    },
    {
      // Every record of the groups and breaks found this round joins the scope.
      name: "scope: records of stored results",
      text: `WITH held AS (
          SELECT side, record_kind, record_ref FROM match_group_members
            WHERE match_id IN (SELECT match_id FROM scope_groups WHERE round = ${r})
          UNION ALL SELECT side, record_kind, record_ref FROM break_records
            WHERE break_id IN (SELECT break_id FROM scope_breaks WHERE round = ${r})
        ), entries AS (
          INSERT INTO scope_entries
          SELECT record_ref, ${next} FROM held WHERE side = 'ledger'
          UNION SELECT entry_id, ${next} FROM breaks
            WHERE break_id IN (SELECT break_id FROM scope_breaks WHERE round = ${r})
            AND entry_id IS NOT NULL
          ON CONFLICT DO NOTHING
        )
        INSERT INTO scope_keys
        SELECT CASE record_kind WHEN 'fee' THEN regexp_replace(record_ref, '#[^#]*$', '')
            WHEN 'account' THEN split_part(record_ref, ':', 1) ELSE record_ref END COLLATE "default",
          ${next}
          FROM held WHERE side = 'provider'
        UNION SELECT a.service_id, ${next} FROM held h
          JOIN account_transactions a ON a.acnt_txn_id = h.record_ref WHERE h.side = 'cash'
        UNION SELECT provider_ref, ${next} FROM breaks
          WHERE break_id IN (SELECT break_id FROM scope_breaks WHERE round = ${r})
          AND provider_ref IS NOT NULL
        ON CONFLICT DO NOTHING`,
    },
    {
      name: "scope: analyze",
      text: "ANALYZE scope_keys, scope_entries, scope_groups, scope_breaks",
    },
  ];
}

/** Keys and entries round `r` found for the next: none ends the growing. */
export const frontierSize = (r: number) => `SELECT
  (SELECT count(*) FROM scope_keys WHERE round = ${r + 1})
  + (SELECT count(*) FROM scope_entries WHERE round = ${r + 1}) AS found,
  (SELECT count(*) FROM scope_keys) + (SELECT count(*) FROM scope_entries) AS records`;

/**
 * The cards of the stored open and pending breaks' records (provider card transactions and
 * ledger entries with a card): the tolerant pass's candidates. Built once per run.
 */
export const breakCards: Statement = {
  name: "scope: cards of breaks",
  text: `CREATE TEMP TABLE break_cards ON COMMIT DROP AS
    SELECT r.break_id, t.card_id FROM break_records r
      JOIN card_transactions t ON t.txn_order_no = r.record_ref
      WHERE r.side = 'provider' AND r.record_kind = 'card_transaction' AND t.card_id IS NOT NULL
    UNION SELECT r.break_id, e.card_id FROM break_records r
      JOIN ledger_entries e ON e.entry_id = r.record_ref
      WHERE r.side = 'ledger' AND e.card_id IS NOT NULL`,
};
