// The stored breaks in an incremental run's scope. Only open and pending breaks hold records
// (a resolved one holds none), and finance works them down, so there are few next to the
// records: the run lists them once (open_break_keys) by everything that puts a break in the
// scope, and each round of growing finds the breaks of its frontier by hash joins with that
// list instead of index probes per frontier row.
//
// A break joins the scope when it holds a key or entry of the frontier, names one (its own
// provider_ref or entry_id), or holds a record the tolerant pass could pair with a frontier
// record: of its card and currency, the amount within the tolerance (TOLERANT_REACH in
// scope.ts). A changed record is taken as it is now and as the stored break records last saw
// it (their card_id, currency and amount).
import { sampled } from "../planner-settings";
import type { Statement } from "../statement";
import { addNew } from "./scope-sql";

/**
 * The key a stored provider record (alias `x`: record_kind, record_ref) sits under: a fee's ref
 * is <key>#<fee type>, an account item's and a cash leg's <serviceId>:<currency>, any other
 * record's is its key.
 */
export const keyOfRecord = (x: string) => `CASE
    WHEN ${x}.record_kind = 'fee' THEN regexp_replace(${x}.record_ref, '#[^#]*$', '')
    WHEN ${x}.record_kind IN ('account', 'cash_leg') THEN regexp_replace(${x}.record_ref, ':[^:]*$', '')
    ELSE ${x}.record_ref END COLLATE "default"`;

/**
 * open_break_keys (break_id, k, entry_id, card_id, currency, amount): one row per provider record
 * (by key), cash leg (by the serviceId of its posting) and ledger entry of every open and
 * pending break, with the card, currency and amount (without sign) stored with it, and one per
 * break for its own refs. Built once per run, then analysed.
 */
export const openBreakKeys: Statement[] = [
  {
    name: "scope: open breaks",
    text: `CREATE TEMP TABLE open_break_keys ON COMMIT DROP AS
      SELECT b.break_id, ${keyOfRecord("b")} AS k, NULL::text COLLATE "C" AS entry_id, b.card_id,
          b.currency, abs(b.amount) AS amount
        FROM break_records b WHERE b.side = 'provider'
      UNION ALL SELECT b.break_id, NULL, b.record_ref, b.card_id, b.currency, abs(b.amount)
        FROM break_records b WHERE b.side = 'ledger'
      UNION ALL SELECT b.break_id, a.service_id, NULL, NULL, NULL, NULL
        FROM break_records b CROSS JOIN LATERAL (SELECT x.service_id FROM account_transactions x
          WHERE x.acnt_txn_id = b.record_ref COLLATE "default" OFFSET 0) a
        WHERE b.side = 'cash'
      UNION ALL SELECT break_id, provider_ref, entry_id COLLATE "C", NULL, NULL, NULL
        FROM breaks WHERE status IN ('open', 'pending')`,
  },
  // From the small sample (planner-settings.ts): enough to hash the joins with each frontier.
  ...sampled("scope: open breaks (analyze)", "open_break_keys"),
];

/**
 * Round `r`'s statements about breaks: the breaks holding or naming a key or entry of the
 * frontier or a record the tolerant pass could pair with one (scope_cards: the frontier's
 * tolerant candidates, written by the round's first statement, scope.ts; `tolerance`, a SQL
 * literal), and the keys and entries of the breaks found, for round r + 1.
 */
export function breakRound(r: number, tolerance: string): Statement[] {
  const next = r + 1;
  const frontierKeys = `open_break_keys b JOIN scope_keys s ON s.k = b.k WHERE s.round = ${r}`;
  const frontierEntries = `open_break_keys b JOIN scope_entries s ON s.entry_id = b.entry_id
    WHERE s.round = ${r}`;
  return [
    {
      name: "scope: stored breaks",
      // held: the breaks holding a frontier key or entry, read once for both of their uses.
      text: `WITH held AS (
          SELECT b.break_id, b.card_id, b.currency, b.amount FROM ${frontierKeys}
          UNION ALL SELECT b.break_id, b.card_id, b.currency, b.amount FROM ${frontierEntries}
        ), cards AS (
          -- The frontier's tolerant candidates now (if any) and as the stored breaks saw them.
          SELECT card_id, currency, amount FROM scope_cards WHERE round = ${r}
          UNION SELECT card_id, currency, amount FROM held WHERE card_id IS NOT NULL
        )
        ${addNew(
          "scope_breaks",
          `SELECT break_id, ${r} FROM held
          UNION SELECT b.break_id, ${r} FROM open_break_keys b JOIN cards c ON c.card_id = b.card_id
            AND c.currency = b.currency AND abs(c.amount - b.amount) <= ${tolerance}`,
        )}`,
    },
    {
      name: "scope: records of breaks",
      text: `WITH found AS (
          SELECT b.k, b.entry_id FROM open_break_keys b JOIN scope_breaks s ON s.break_id = b.break_id
          WHERE s.round = ${r}
        ), entries AS (
          ${addNew("scope_entries", `SELECT DISTINCT entry_id, ${next} FROM found WHERE entry_id IS NOT NULL`)}
        )
        ${addNew("scope_keys", `SELECT DISTINCT k, ${next} FROM found WHERE k IS NOT NULL`)}`,
    },
  ];
}
