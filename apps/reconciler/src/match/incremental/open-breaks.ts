// The stored breaks in an incremental run's scope. Only open and pending breaks hold records
// (a resolved one holds none), and finance works them down, so there are few next to the
// records: the run lists them once by everything that puts a break in the scope — the provider
// key of each record it holds, its ledger entries, the card of each (the tolerant pass proposes
// between any unmatched records of one card), its own provider_ref and entry_id — and each round
// of growing finds the breaks of its frontier by one hash join with that list, instead of
// several index probes per frontier row into break_records and breaks.
import type { Statement } from "../statement";

/**
 * The key a stored provider record (alias `x`: record_kind, record_ref) sits under: a fee's ref
 * is <key>#<fee type>, an account item's <serviceId>:<currency>, any other record's is its key.
 */
export const keyOfRecord = (x: string) => `CASE ${x}.record_kind
    WHEN 'fee' THEN regexp_replace(${x}.record_ref, '#[^#]*$', '')
    WHEN 'account' THEN regexp_replace(${x}.record_ref, ':[^:]*$', '')
    ELSE ${x}.record_ref END COLLATE "default"`;

/**
 * open_break_keys (break_id, k, entry_id, card_id): one row per provider record (by key), cash
 * leg (by the serviceId of its posting), ledger entry and own ref of every open and pending
 * break, with the record's card where it has one. Built once per run, then analysed.
 */
export const openBreakKeys: Statement[] = [
  {
    name: "scope: open breaks",
    text: `CREATE TEMP TABLE open_break_keys ON COMMIT DROP AS
      SELECT b.break_id, ${keyOfRecord("b")} AS k, NULL::text COLLATE "C" AS entry_id, c.card_id
        FROM break_records b LEFT JOIN LATERAL (SELECT x.card_id FROM card_transactions x
          WHERE b.record_kind = 'card_transaction' AND x.txn_order_no = b.record_ref COLLATE "default"
          OFFSET 0) c ON true
        WHERE b.side = 'provider'
      UNION ALL SELECT b.break_id, NULL, b.record_ref, e.card_id
        FROM break_records b LEFT JOIN LATERAL (SELECT x.card_id FROM ledger_entries x
          WHERE x.entry_id = b.record_ref OFFSET 0) e ON true
        WHERE b.side = 'ledger'
      UNION ALL SELECT b.break_id, a.service_id, NULL, NULL
        FROM break_records b CROSS JOIN LATERAL (SELECT x.service_id FROM account_transactions x
          WHERE x.acnt_txn_id = b.record_ref COLLATE "default" OFFSET 0) a
        WHERE b.side = 'cash'
      UNION ALL SELECT break_id, provider_ref, entry_id COLLATE "C", NULL
        FROM breaks WHERE status IN ('open', 'pending')`,
  },
  { name: "scope: open breaks (analyze)", text: "ANALYZE open_break_keys" },
];

/**
 * Round `r`'s statements about breaks: the breaks holding a key or entry of the frontier or a
 * record of a card it touches (`cards`: a query of card_id, empty for none), and the keys and
 * entries of the breaks found, for round r + 1.
 */
export function breakRound(r: number, cards: string): Statement[] {
  const next = r + 1;
  return [
    {
      name: "scope: stored breaks",
      text: `INSERT INTO scope_breaks
        SELECT b.break_id, ${r} FROM open_break_keys b JOIN scope_keys s ON s.k = b.k
          WHERE s.round = ${r}
        UNION SELECT b.break_id, ${r} FROM open_break_keys b JOIN scope_entries s
          ON s.entry_id = b.entry_id WHERE s.round = ${r}
        ${cards === "" ? "" : `UNION SELECT b.break_id, ${r} FROM open_break_keys b JOIN (${cards}) c ON c.card_id = b.card_id`}
        ON CONFLICT DO NOTHING`,
    },
    {
      name: "scope: records of breaks",
      text: `WITH found AS (
          SELECT b.k, b.entry_id FROM open_break_keys b JOIN scope_breaks s ON s.break_id = b.break_id
          WHERE s.round = ${r}
        ), entries AS (
          INSERT INTO scope_entries SELECT DISTINCT entry_id, ${next} FROM found
          WHERE entry_id IS NOT NULL
          ON CONFLICT DO NOTHING
        )
        INSERT INTO scope_keys SELECT DISTINCT k, ${next} FROM found WHERE k IS NOT NULL
        ON CONFLICT DO NOTHING`,
    },
  ];
}
