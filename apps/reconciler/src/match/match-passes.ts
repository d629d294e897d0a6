// The matching passes as SQL: each pass is one set-based statement over the whole data set
// (CREATE TABLE … AS SELECT or INSERT … SELECT); nothing is decided row by row in JavaScript.
// They run in order inside one transaction on temporary tables (mk_*), dropped at commit.
import { advisoryKey } from "../db/advisory-key";
import { BREAK_PRIORITY } from "./break-classes";
import { exactPass, paired } from "./exact-pass";
import type { ResolvedMatchOptions } from "./match-options";
import { literals, type Statement } from "./statement";

/** A provider leftover (alias a) not yet taken by a later pass's match or break. */
const openP = (a: string) =>
  `NOT EXISTS (SELECT 1 FROM mk_mem m WHERE m.side = 'provider' AND m.record_kind = ${a}.kind AND m.record_ref = ${a}.item_ref)
   AND NOT EXISTS (SELECT 1 FROM mk_bx b WHERE b.r_side = 'provider' AND b.r_kind = ${a}.kind AND b.r_ref = ${a}.item_ref)`;
/** A ledger leftover (alias a) not yet taken by a later pass's match or break. */
const openL = (a: string) =>
  `NOT EXISTS (SELECT 1 FROM mk_mem m WHERE m.side = 'ledger' AND m.record_ref = ${a}.entry_id)
   AND NOT EXISTS (SELECT 1 FROM mk_bx b WHERE b.r_side = 'ledger' AND b.r_ref = ${a}.entry_id)`;

const BX = `INSERT INTO mk_bx (break_key, class, status, record_kind, provider_ref, entry_id, currency,
  amount, provider_amount, ledger_amount, detail, occurred_at, r_side, r_kind, r_ref, r_amount,
  r_currency, main)`;

/** Priority of a class as a SQL CASE over `class`. */
export const PRIORITY_SQL = `CASE class ${Object.entries(BREAK_PRIORITY)
  .map(([cls, p]) => `WHEN '${cls}' THEN ${p}`)
  .join(" ")} ELSE 3 END`;

/** Statements that compute the run's matches (mk_exact, mk_mem) and breaks (mk_bx). */
export function matchPasses(o: ResolvedMatchOptions): Statement[] {
  // The work tables grow pass by pass: fresh statistics keep the next pass's anti-joins hashed.
  return passStatements(o).flatMap((s) =>
    s.text.includes("INSERT INTO mk_mem")
      ? [s, { name: `${s.name} (analyze)`, text: "ANALYZE mk_mem" }]
      : s.text.includes("INSERT INTO mk_bx")
        ? [s, { name: `${s.name} (analyze)`, text: "ANALYZE mk_bx" }]
        : [s],
  );
}

function passStatements(o: ResolvedMatchOptions): Statement[] {
  const v = literals(o);
  return [
    // One matcher at a time: two interleaved runs would each see the other's half-written rows.
    { name: "lock", text: `SELECT pg_advisory_xact_lock(${advisoryKey("match")})` },
    { name: "memory", text: `SET LOCAL work_mem = '128MB'` },
    {
      // The planner's cost of the exact pass's million-row join makes JIT inline and optimise
      // it: close to a second of compiling for a statement of about two.
      name: "no jit",
      text: "SET LOCAL jit = off",
    },
    {
      // Hash joins throughout: the planner, misled by the views' and temporary tables'
      // estimates, would otherwise sort a million rows for a merge join (3× slower); no
      // statement of the run gains from sorted input.
      name: "planner",
      text: "SET LOCAL enable_mergejoin = off",
    },
    ...exactPass(),
    {
      name: "match work table",
      text: `CREATE TEMP TABLE mk_mem (match_id text, pass text, status text, side text,
          record_kind text, record_ref text, amount numeric, currency text) ON COMMIT DROP`,
    },
    {
      name: "break work table",
      text: `CREATE TEMP TABLE mk_bx (break_key text, class text, status text, record_kind text,
          provider_ref text, entry_id text, currency text, amount numeric, provider_amount numeric,
          ledger_amount numeric, detail text, occurred_at timestamptz, r_side text, r_kind text,
          r_ref text, r_amount numeric, r_currency text, main boolean) ON COMMIT DROP`,
    },
    {
      // Pass 2a, chain: one entry on an authorization books all its clearings (and refunds),
      // compared in settle currency.
      name: "chain",
      text: `INSERT INTO mk_mem
        WITH cand AS (
          SELECT l.entry_id, l.ref, l.amount, l.currency,
            row_number() OVER (PARTITION BY l.ref ORDER BY l.entry_id) AS rn
          FROM mk_ll l JOIN card_transactions a ON a.txn_order_no = l.ref AND a.txn_type = 'AUTHORIZATION'
          WHERE l.kind = 'card_transaction'
        ), items AS (
          SELECT p.* FROM mk_pl p
          WHERE p.kind = 'card_transaction' AND p.origin_ref IN (SELECT ref FROM cand WHERE rn = 1)
        ), sums AS (
          SELECT origin_ref, sum(amount) AS amount, min(currency) AS c1, max(currency) AS c2
          FROM items GROUP BY origin_ref
        ), ok AS (
          SELECT c.* FROM cand c JOIN sums s ON s.origin_ref = c.ref
          WHERE c.rn = 1 AND s.amount = c.amount AND s.c1 = c.currency AND s.c2 = c.currency
        )
        SELECT 'chain:' || ok.ref, 'chain', 'confirmed', 'ledger', 'ledger_entry', ok.entry_id,
          ok.amount, ok.currency FROM ok
        UNION ALL
        SELECT 'chain:' || ok.ref, 'chain', 'confirmed', 'provider', i.kind, i.item_ref, i.amount,
          i.currency FROM ok JOIN items i ON i.origin_ref = ok.ref`,
    },
    {
      // Pass 2b, refund chain: one entry on a clearing books it net of its refunds
      // (originTxnOrderNoForRefund).
      name: "refund chain",
      text: `INSERT INTO mk_mem
        WITH cand AS (
          SELECT l.entry_id, l.ref, l.amount, l.currency,
            row_number() OVER (PARTITION BY l.ref ORDER BY l.entry_id) AS rn
          FROM mk_ll l JOIN mk_pl c ON c.kind = 'card_transaction' AND c.item_ref = l.ref
            AND c.record_type = 'CLEARING'
          WHERE l.kind = 'card_transaction' AND ${openL("l")} AND ${openP("c")}
        ), items AS (
          SELECT CASE WHEN p.record_type = 'REFUND' THEN p.refund_of ELSE p.item_ref END AS root, p.*
          FROM mk_pl p
          WHERE p.kind = 'card_transaction' AND ${openP("p")}
            AND (p.item_ref IN (SELECT ref FROM cand WHERE rn = 1)
              OR (p.record_type = 'REFUND' AND p.refund_of IN (SELECT ref FROM cand WHERE rn = 1)))
        ), sums AS (
          SELECT root, sum(amount) AS amount, min(currency) AS c1, max(currency) AS c2, count(*) AS n
          FROM items GROUP BY root
        ), ok AS (
          SELECT c.* FROM cand c JOIN sums s ON s.root = c.ref
          WHERE c.rn = 1 AND s.n > 1 AND s.amount = c.amount AND s.c1 = c.currency AND s.c2 = c.currency
        )
        SELECT 'net:' || ok.ref, 'chain', 'confirmed', 'ledger', 'ledger_entry', ok.entry_id,
          ok.amount, ok.currency FROM ok
        UNION ALL
        SELECT 'net:' || ok.ref, 'chain', 'confirmed', 'provider', i.kind, i.item_ref, i.amount,
          i.currency FROM ok JOIN items i ON i.root = ok.ref`,
    },
    {
      // Pass 3, operation gross: one entry books an operation with its fees (no fee lines).
      name: "operation gross",
      text: `INSERT INTO mk_mem
        WITH cand AS (
          SELECT l.entry_id, l.ref, l.amount, l.currency,
            row_number() OVER (PARTITION BY l.ref ORDER BY l.entry_id) AS rn
          FROM mk_ll l JOIN mk_pl op ON op.kind = 'card_operation' AND op.item_ref = l.ref
          WHERE l.kind = 'card_operation' AND ${openL("l")} AND ${openP("op")}
            AND NOT EXISTS (SELECT 1 FROM mk_exact f WHERE f.entry_id IS NOT NULL AND f.kind = 'fee'
              AND f.ref = l.ref)
        ), items AS (
          SELECT p.* FROM mk_pl p
          WHERE p.ref IN (SELECT ref FROM cand WHERE rn = 1) AND p.parent_kind = 'card_operation'
            AND p.kind IN ('card_operation', 'fee') AND ${openP("p")}
        ), sums AS (
          SELECT ref, sum(amount) AS amount, min(currency) AS c1, max(currency) AS c2, count(*) AS n
          FROM items GROUP BY ref
        ), ok AS (
          SELECT c.* FROM cand c JOIN sums s ON s.ref = c.ref
          WHERE c.rn = 1 AND s.n > 1 AND s.amount = c.amount AND s.c1 = c.currency AND s.c2 = c.currency
        )
        SELECT 'gross:' || ok.ref, 'operation_gross', 'confirmed', 'ledger', 'ledger_entry',
          ok.entry_id, ok.amount, ok.currency FROM ok
        UNION ALL
        SELECT 'gross:' || ok.ref, 'operation_gross', 'confirmed', 'provider', i.kind,
          i.item_ref, i.amount, i.currency FROM ok JOIN items i ON i.ref = ok.ref`,
    },
    {
      // Pass 4, cash leg: the account postings of a matched operation (serviceId =
      // operateRecordId) join its match group when they sum to the operation and its fees.
      name: "cash leg",
      text: `INSERT INTO mk_mem
        WITH live AS (
          SELECT x.item_ref AS crid, 'exact:card_operation:' || x.item_ref AS match_id
          FROM mk_exact x WHERE x.kind = 'card_operation' AND ${paired("x")}
          UNION ALL
          SELECT m.record_ref, m.match_id FROM mk_mem m
          WHERE m.side = 'provider' AND m.record_kind = 'card_operation'
        ), expected AS (
          SELECT l.crid, l.match_id, o.operate_record_id, sum(p.amount) AS amount,
            min(p.currency) AS currency
          FROM live l JOIN operate_records o ON o.client_request_id = l.crid
          JOIN mk_exact p ON p.ref = l.crid AND p.parent_kind = 'card_operation'
          GROUP BY l.crid, l.match_id, o.operate_record_id
        ), cash AS (
          SELECT a.service_id, sum(a.amount) AS amount, min(a.currency) AS c1, max(a.currency) AS c2
          FROM account_transactions a
          WHERE a.service_id IN (SELECT operate_record_id FROM expected) GROUP BY a.service_id
        )
        SELECT e.match_id, 'cash_leg', 'confirmed', 'cash', 'account_transaction', a.acnt_txn_id,
          a.amount, a.currency
        FROM expected e JOIN cash c ON c.service_id = e.operate_record_id AND c.amount = e.amount
          AND c.c1 = e.currency AND c.c2 = e.currency
        JOIN account_transactions a ON a.service_id = e.operate_record_id`,
    },
    {
      // Cash legs that do not add up: a settled operation whose fetched postings differ from
      // its amount and fees, or a failed one whose postings do not net to zero.
      name: "cash leg breaks",
      text: `${BX}
        WITH ex AS (
          SELECT o.operate_record_id, o.client_request_id, o.status, o.operate_time,
            coalesce(sum(p.amount) FILTER (WHERE o.status = 'S'), 0) AS amount,
            coalesce(min(p.currency), min(o.currency)) AS currency
          FROM operate_records o
          LEFT JOIN mk_exact p ON p.ref = o.client_request_id AND p.parent_kind = 'card_operation'
          WHERE o.status IN ('S', 'F')
          GROUP BY o.operate_record_id, o.client_request_id, o.status, o.operate_time
        ), cash AS (
          SELECT service_id, sum(amount) AS amount FROM account_transactions
          WHERE service_id IN (SELECT operate_record_id FROM ex) GROUP BY service_id
        )
        SELECT 'p:cash:' || ex.client_request_id, 'cash_leg_mismatch', 'open', 'card_operation',
          ex.client_request_id, NULL, ex.currency, abs(ex.amount - coalesce(c.amount, 0)), ex.amount,
          NULL, format('operation %s (%s): account postings sum to %s, the operation and its fees to %s',
            ex.client_request_id, ex.status, coalesce(c.amount, 0), ex.amount),
          ex.operate_time, NULL, NULL, NULL, NULL, NULL, true
        FROM ex JOIN service_ids s ON s.service_id = ex.operate_record_id AND s.fetched_at IS NOT NULL
        LEFT JOIN cash c ON c.service_id = ex.operate_record_id
        WHERE ex.amount <> coalesce(c.amount, 0)`,
    },
    {
      // Pass 5, key equal but amount or currency differs: a break, never a match.
      name: "key mismatch",
      text: `${BX}
        WITH l AS (
          SELECT l.*, row_number() OVER (PARTITION BY l.kind, l.ref, l.fee_type ORDER BY l.entry_id) AS rn
          FROM mk_ll l WHERE ${openL("l")}
        ), p AS (
          SELECT p.*, row_number() OVER (PARTITION BY p.kind, p.ref, p.fee_type ORDER BY p.currency, p.item_ref) AS rn
          FROM mk_pl p WHERE ${openP("p")}
        ), pairs AS (
          SELECT p.kind, p.item_ref, p.ref, p.fee_type, p.amount AS pa, p.currency AS pc, p.occurred_at,
            l.entry_id, l.amount AS la, l.currency AS lc,
            CASE WHEN p.kind = 'fee' THEN 'fee_mismatch'
              WHEN p.currency <> l.currency THEN 'currency_mismatch' ELSE 'amount_mismatch' END AS class
          FROM p JOIN l ON l.kind = p.kind AND l.ref = p.ref AND l.fee_type = p.fee_type AND l.rn = p.rn
        )
        SELECT 'p:' || x.kind || ':' || x.item_ref, x.class, 'open', x.kind, x.ref, x.entry_id, x.pc,
          CASE WHEN x.pc = x.lc THEN abs(x.pa - x.la) ELSE abs(x.la) END, x.pa, x.la,
          format('%s %s%s: provider %s %s, ledger %s %s (entry %s)', replace(x.kind, '_', ' '), x.ref,
            CASE WHEN x.fee_type <> '' THEN ' ' || x.fee_type ELSE '' END, x.pa, x.pc, x.la, x.lc, x.entry_id),
          x.occurred_at, r.side, r.kind, r.ref, r.amount, r.currency, r.main
        FROM pairs x CROSS JOIN LATERAL (VALUES
          ('provider', x.kind, x.item_ref, x.pa, x.pc, true),
          ('ledger', 'ledger_entry', x.entry_id, x.la, x.lc, false)
        ) AS r(side, kind, ref, amount, currency, main)`,
    },
    {
      // Pass 5b, chain mismatch: an entry on an authorization whose open clearings and refunds
      // sum to another amount.
      name: "chain mismatch",
      text: `${BX}
        WITH l AS (
          SELECT l.*, row_number() OVER (PARTITION BY l.ref ORDER BY l.entry_id) AS rn
          FROM mk_ll l JOIN card_transactions a ON a.txn_order_no = l.ref AND a.txn_type = 'AUTHORIZATION'
          WHERE l.kind = 'card_transaction' AND ${openL("l")}
        ), items AS (
          SELECT p.* FROM mk_pl p WHERE p.kind = 'card_transaction' AND ${openP("p")}
            AND p.origin_ref IN (SELECT ref FROM l WHERE rn = 1)
        ), sums AS (
          SELECT origin_ref, sum(amount) AS amount, min(currency) AS currency, min(occurred_at) AS at
          FROM items GROUP BY origin_ref
        ), x AS (
          SELECT l.entry_id, l.ref, l.amount AS la, l.currency AS lc, s.amount AS pa, s.currency AS pc, s.at
          FROM l JOIN sums s ON s.origin_ref = l.ref WHERE l.rn = 1
        )
        SELECT 'p:chain:' || x.ref, CASE WHEN x.pc <> x.lc THEN 'currency_mismatch' ELSE 'amount_mismatch' END,
          'open', 'card_transaction', x.ref, x.entry_id, x.pc,
          CASE WHEN x.pc = x.lc THEN abs(x.pa - x.la) ELSE abs(x.la) END, x.pa, x.la,
          format('authorization %s: its clearings and refunds sum to %s %s, the ledger books %s %s (entry %s)',
            x.ref, x.pa, x.pc, x.la, x.lc, x.entry_id),
          x.at, r.side, r.kind, r.ref, r.amount, r.currency, r.main
        FROM x CROSS JOIN LATERAL (
          SELECT 'ledger' AS side, 'ledger_entry' AS kind, x.entry_id AS ref, x.la AS amount, x.lc AS currency, true AS main
          UNION ALL
          SELECT 'provider', i.kind, i.item_ref, i.amount, i.currency, false FROM items i WHERE i.origin_ref = x.ref
        ) r`,
    },
    {
      // Booked, but the provider has the record F, or still P past the grace period.
      name: "status",
      text: `${BX}
        WITH l AS (
          SELECT l.* FROM mk_ll l WHERE l.kind IN ('card_transaction', 'card_operation', 'fee') AND ${openL("l")}
        ), rec AS (
          SELECT l.entry_id, l.ref, l.amount, l.currency, l.booked_at, t.txn_status AS status,
            t.txn_type AS type, t.transaction_time AS at, 'card_transaction' AS kind
          FROM l JOIN card_transactions t ON t.txn_order_no = l.ref
          WHERE l.kind IN ('card_transaction', 'fee')
          UNION ALL
          SELECT l.entry_id, l.ref, l.amount, l.currency, l.booked_at, o.status, o.type, o.operate_time,
            'card_operation'
          FROM l JOIN operate_records o ON o.client_request_id = l.ref
          WHERE l.kind IN ('card_operation', 'fee')
        )
        SELECT 'l:' || x.entry_id, 'status_mismatch',
          CASE WHEN x.status = 'P' AND x.at > ${v.asOf} - ${v.pendingGrace} THEN 'pending' ELSE 'open' END,
          x.kind, x.ref, x.entry_id, x.currency, abs(x.amount), NULL, x.amount,
          format('entry %s books %s %s, which the provider has %s', x.entry_id, lower(x.type), x.ref,
            CASE x.status WHEN 'F' THEN 'failed (F)' ELSE 'still processing (P)' END),
          coalesce(x.at, x.booked_at), 'ledger', 'ledger_entry', x.entry_id, x.amount, x.currency, true
        FROM (SELECT DISTINCT ON (entry_id) * FROM rec WHERE status IN ('F', 'P') ORDER BY entry_id, kind) x`,
    },
    {
      // The key is already booked and matched (or in a break) through another entry.
      name: "duplicates",
      text: `${BX}
        WITH l AS (SELECT l.* FROM mk_ll l WHERE ${openL("l")}),
        -- Joined from the few leftover entries (mk_ll, whose statistics make the planner hash
        -- them rather than a million items of mk_exact).
        known AS (
          SELECT l.entry_id FROM mk_ll l JOIN mk_exact p ON p.kind = l.kind AND p.ref = l.ref
            AND p.fee_type = l.fee_type AND p.item_ref IS NOT NULL
          UNION
          -- An entry on an authorization whose clearings are provider items. (Not looked up in
          -- card_transactions: on PGlite, which never analyses it, the planner loops over it.)
          SELECT l.entry_id FROM mk_ll l JOIN mk_exact p ON p.origin_ref = l.ref
            AND p.kind = 'card_transaction' AND p.record_type = 'CLEARING'
          WHERE l.kind = 'card_transaction'
        )
        SELECT 'l:' || l.entry_id, 'duplicate_in_ledger', 'open', l.kind, l.ref, l.entry_id, l.currency,
          abs(l.amount), NULL, l.amount,
          format('entry %s books %s %s a second time', l.entry_id, replace(l.kind, '_', ' '), l.ref),
          l.booked_at, 'ledger', 'ledger_entry', l.entry_id, l.amount, l.currency, true
        FROM l WHERE l.entry_id IN (SELECT entry_id FROM known)`,
    },
    {
      // Booked against a settled provider record that moves no money (reversal, verification,
      // freeze...): the provider's amount is zero.
      name: "no money",
      text: `${BX}
        WITH l AS (SELECT l.* FROM mk_ll l WHERE l.kind IN ('card_transaction', 'card_operation') AND ${openL("l")}),
        rec AS (
          SELECT l.*, t.txn_type AS type, t.transaction_time AS at FROM l
          JOIN card_transactions t ON t.txn_order_no = l.ref AND t.txn_status = 'S'
          WHERE l.kind = 'card_transaction'
          UNION ALL
          SELECT l.*, o.type, o.operate_time FROM l
          JOIN operate_records o ON o.client_request_id = l.ref AND o.status = 'S'
          WHERE l.kind = 'card_operation'
        )
        SELECT 'l:' || x.entry_id, 'amount_mismatch', 'open', x.kind, x.ref, x.entry_id, x.currency,
          abs(x.amount), 0, x.amount,
          format('entry %s books %s %s, a %s that moves no money', x.entry_id, x.amount, x.currency,
            lower(x.type)),
          coalesce(x.at, x.booked_at), 'ledger', 'ledger_entry', x.entry_id, x.amount, x.currency, true
        FROM (SELECT DISTINCT ON (entry_id) * FROM rec ORDER BY entry_id) x`,
    },
    {
      // Pass 6, tolerant fallback: same card and currency, amount within the tolerance, time
      // within the window. It only proposes (a person confirms); each record in one proposal,
      // best candidate first, ties broken by id.
      name: "tolerant",
      text: `CREATE TEMP TABLE mk_prop ON COMMIT DROP AS
        WITH c AS (
          SELECT l.entry_id, l.amount AS la, l.currency, l.card_id, l.booked_at, p.item_ref, p.ref,
            p.amount AS pa, p.occurred_at, abs(l.amount - p.amount) AS d,
            abs(extract(epoch FROM (l.booked_at - p.occurred_at))) AS t
          FROM mk_ll l JOIN mk_pl p ON p.kind = 'card_transaction' AND p.card_id = l.card_id
            AND p.currency = l.currency
          WHERE l.kind = 'card_transaction' AND l.card_id IS NOT NULL AND ${openL("l")} AND ${openP("p")}
            AND abs(l.amount - p.amount) <= ${v.tolerance}
            AND l.booked_at BETWEEN p.occurred_at - ${v.window} AND p.occurred_at + ${v.window}
        ), best_l AS (
          SELECT DISTINCT ON (entry_id) * FROM c ORDER BY entry_id, d, t, item_ref
        )
        SELECT DISTINCT ON (item_ref) * FROM best_l ORDER BY item_ref, d, t, entry_id`,
    },
    {
      name: "tolerant matches",
      text: `INSERT INTO mk_mem
        SELECT 'proposed:' || entry_id, 'tolerant', 'proposed', 'ledger', 'ledger_entry', entry_id, la, currency FROM mk_prop
        UNION ALL
        SELECT 'proposed:' || entry_id, 'tolerant', 'proposed', 'provider', 'card_transaction', item_ref, pa, currency FROM mk_prop`,
    },
    {
      name: "tolerant breaks",
      text: `${BX}
        SELECT 'l:' || x.entry_id, 'proposed_match', 'open', 'card_transaction', x.ref, x.entry_id,
          x.currency, abs(x.pa - x.la), x.pa, x.la,
          format('entry %s (%s %s) is proposed as %s (%s %s): confirm or reject', x.entry_id, x.la,
            x.currency, x.ref, x.pa, x.currency),
          x.occurred_at, r.side, r.kind, r.ref, r.amount, x.currency, r.main
        FROM mk_prop x CROSS JOIN LATERAL (VALUES
          ('ledger', 'ledger_entry', x.entry_id, x.la, true),
          ('provider', 'card_transaction', x.item_ref, x.pa, false)
        ) AS r(side, kind, ref, amount, main)`,
    },
    {
      // Booked, but the provider has no such record (fee lines of the entry go with it).
      name: "missing at provider",
      text: `${BX}
        WITH l AS (SELECT l.* FROM mk_ll l WHERE ${openL("l")}),
        parent AS (SELECT DISTINCT ON (ref) entry_id, ref FROM l WHERE kind <> 'fee' ORDER BY ref, entry_id),
        recs AS (
          SELECT x.entry_id AS owner, x.entry_id, x.amount, x.currency, true AS main FROM l x WHERE x.kind <> 'fee'
          UNION ALL
          SELECT pa.entry_id, f.entry_id, f.amount, f.currency, false FROM l f JOIN parent pa ON pa.ref = f.ref
          WHERE f.kind = 'fee'
        )
        SELECT 'l:' || x.entry_id, 'missing_at_provider',
          CASE WHEN x.booked_at > ${v.asOf} - ${v.providerGrace} THEN 'pending' ELSE 'open' END,
          x.kind, x.ref, x.entry_id, x.currency, abs(x.amount), NULL, x.amount,
          format('entry %s books %s %s on %s %s, which the provider does not have', x.entry_id,
            x.amount, x.currency, replace(x.kind, '_', ' '), x.ref),
          x.booked_at, 'ledger', 'ledger_entry', r.entry_id, r.amount, r.currency, r.main
        FROM l x JOIN recs r ON r.owner = x.entry_id
        WHERE x.kind <> 'fee'`,
    },
    {
      name: "ledger fees",
      text: `${BX}
        SELECT 'l:' || l.entry_id, 'fee_mismatch', 'open', 'fee', l.ref, l.entry_id, l.currency,
          abs(l.amount), NULL, l.amount,
          format('entry %s books a %s fee of %s %s on %s that the provider did not charge',
            l.entry_id, l.fee_type, l.amount, l.currency, l.ref),
          l.booked_at, 'ledger', 'ledger_entry', l.entry_id, l.amount, l.currency, true
        FROM mk_ll l WHERE l.kind = 'fee' AND ${openL("l")}`,
    },
    {
      // A refund is booked but the clearing it gives back is not: one break on the refund
      // (the clearing and its fees are its records).
      name: "orphan refunds",
      text: `${BX}
        WITH open_clearings AS (
          SELECT p.* FROM mk_pl p
          WHERE p.kind = 'card_transaction' AND p.record_type = 'CLEARING' AND ${openP("p")}
        ), booked_refunds AS (
          -- Refunds of those clearings matched exactly (paired in mk_exact) or in a chain.
          SELECT r.refund_of, min(r.item_ref) AS refund FROM mk_exact r
          WHERE r.kind = 'card_transaction' AND r.record_type = 'REFUND'
            AND r.refund_of IN (SELECT item_ref FROM open_clearings)
            AND (r.entry_id IS NOT NULL OR r.item_ref IN (SELECT record_ref FROM mk_mem
              WHERE side = 'provider' AND record_kind = 'card_transaction'))
          GROUP BY r.refund_of
        ), c AS (
          SELECT p.*, b.refund FROM open_clearings p JOIN booked_refunds b ON b.refund_of = p.item_ref
        ), recs AS (
          SELECT c.item_ref AS owner, c.kind, c.item_ref, c.amount, c.currency, true AS main FROM c
          UNION ALL
          SELECT c.item_ref, f.kind, f.item_ref, f.amount, f.currency, false FROM c
          JOIN mk_pl f ON f.kind = 'fee' AND f.ref = c.item_ref AND f.parent_kind = 'card_transaction'
          WHERE ${openP("f")}
        )
        SELECT 'p:orphan:' || c.refund, 'orphan_refund_or_reversal', 'open', 'card_transaction',
          c.refund, NULL, c.currency, abs(c.amount), c.amount, NULL,
          format('refund %s is booked, but the clearing it gives back (%s, %s %s) is not', c.refund,
            c.item_ref, c.amount, c.currency),
          c.occurred_at, 'provider', r.kind, r.item_ref, r.amount, r.currency, r.main
        FROM c JOIN recs r ON r.owner = c.item_ref`,
    },
    {
      // The provider moved money the ledger has not booked (fees of the record go with it).
      name: "missing in ledger",
      text: `${BX}
        WITH p AS (SELECT p.* FROM mk_pl p WHERE ${openP("p")}),
        recs AS (
          SELECT x.kind AS owner_kind, x.item_ref AS owner, x.kind, x.item_ref, x.amount, x.currency,
            true AS main FROM p x WHERE x.kind <> 'fee'
          UNION ALL
          SELECT x.kind, x.item_ref, f.kind, f.item_ref, f.amount, f.currency, false
          FROM p x JOIN p f ON f.kind = 'fee' AND f.ref = x.ref AND f.parent_kind = x.kind
          WHERE x.kind <> 'fee'
        )
        SELECT 'p:' || x.kind || ':' || x.item_ref, 'missing_in_ledger',
          CASE WHEN x.occurred_at > ${v.asOf} - ${v.ledgerGrace} THEN 'pending' ELSE 'open' END,
          x.kind, x.ref, NULL, x.currency, abs(x.amount), x.amount, NULL,
          format('%s %s: the provider has %s %s (%s), the ledger has nothing', replace(x.kind, '_', ' '),
            x.ref, x.amount, x.currency, lower(x.record_type)),
          x.occurred_at, 'provider', r.kind, r.item_ref, r.amount, r.currency, r.main
        FROM p x JOIN recs r ON r.owner_kind = x.kind AND r.owner = x.item_ref
        WHERE x.kind <> 'fee'`,
    },
    {
      name: "provider fees",
      text: `${BX}
        SELECT 'p:fee:' || p.item_ref, 'fee_mismatch', 'open', 'fee', p.ref, NULL, p.currency,
          abs(p.amount), p.amount, NULL,
          format('%s fee of %s %s on %s: the ledger has no such fee line', p.fee_type, p.amount,
            p.currency, p.ref),
          p.occurred_at, 'provider', 'fee', p.item_ref, p.amount, p.currency, true
        FROM mk_pl p WHERE p.kind = 'fee' AND ${openP("p")}`,
    },
    {
      // A refund or reversal whose original is not among the provider's records.
      name: "orphans at provider",
      text: `${BX}
        SELECT 'p:orphan:' || t.txn_order_no, 'orphan_refund_or_reversal', 'open', 'card_transaction',
          t.txn_order_no, NULL, coalesce(t.settle_currency, t.card_currency),
          coalesce(t.settle_amount, t.card_amount, 0), coalesce(t.settle_amount, t.card_amount), NULL,
          format('%s %s names %s, which the provider data does not hold', lower(t.txn_type),
            t.txn_order_no, coalesce(t.origin_txn_order_no_for_refund, t.origin_txn_order_no, 'no original')),
          t.transaction_time, NULL, NULL, NULL, NULL, NULL, true
        FROM card_transactions t
        WHERE t.txn_type IN ('REFUND', 'REVERSAL') AND t.txn_status = 'S'
          AND NOT EXISTS (SELECT 1 FROM card_transactions o WHERE o.txn_order_no =
            CASE WHEN t.txn_type = 'REFUND' THEN coalesce(t.origin_txn_order_no_for_refund, t.origin_txn_order_no)
              ELSE t.origin_txn_order_no END)`,
    },
    {
      // Authorizations still holding money past the limit, with what they still hold.
      name: "stale authorizations",
      text: `${BX}
        SELECT 'p:stale:' || a.txn_order_no, 'stale_authorization', 'open', 'card_transaction',
          a.txn_order_no, NULL, a.card_currency, greatest(a.card_amount - coalesce(u.used, 0), 0),
          greatest(a.card_amount - coalesce(u.used, 0), 0), NULL,
          format('authorization %s has held %s %s since %s', a.txn_order_no,
            greatest(a.card_amount - coalesce(u.used, 0), 0), a.card_currency,
            to_char(a.transaction_time AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI')),
          a.transaction_time, NULL, NULL, NULL, NULL, NULL, true
        FROM card_transactions a
        LEFT JOIN LATERAL (SELECT sum(c.card_amount) AS used FROM card_transactions c
          WHERE c.origin_txn_order_no = a.txn_order_no AND c.txn_status = 'S'
            AND c.txn_type IN ('CLEARING', 'REVERSAL')) u ON true
        WHERE a.txn_type = 'AUTHORIZATION' AND a.txn_status = 'P'
          AND a.transaction_time < ${v.asOf} - ${v.stale}`,
    },
    {
      name: "breaks of the run",
      text: `CREATE TEMP TABLE mk_b ON COMMIT DROP AS
        SELECT DISTINCT ON (break_key) substr(md5(break_key), 1, 16) AS break_id, break_key, class,
          ${PRIORITY_SQL} AS priority, status, record_kind, provider_ref, entry_id, currency, amount,
          provider_amount, ledger_amount, detail, occurred_at
        FROM mk_bx ORDER BY break_key, main DESC, r_side, r_ref`,
    },
  ];
}
