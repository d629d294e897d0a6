// Proposal decisions lapse like manual matches and acceptances: checked inside every match run
// that wrote its breaks (or reused them), after those writes. A decision holds while both of its
// records are unmatched with the amount and currency decided on (passes/decided-proposals.ts
// stops applying it as soon as they are not); here each decision that no longer holds is stamped
// lapsed, once, and its break gets a `lapse` audit row (actor "reconciler") saying what changed.
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { queryRows, queryText } from "../db/query-rows";
import { REAL_SCHEMA } from "../db/real-schema";
import { notProposed } from "../store/proposed-groups";
import { RECONCILER_ACTOR } from "./break-actions";

/**
 * SQL: why the decision `d`'s record on `side` no longer holds, or null. `now_` is the record as
 * stored (null when gone); a record in any pair or group but the decision's own confirmation
 * (a proposal is no match) is paired by a rule now.
 */
const why = (
  schema: string,
  side: "ledger" | "provider",
  kind: string,
  ref: string,
  amount: string,
  currency: string,
) =>
  sql.raw(`CASE WHEN now_.amount IS NULL THEN '${side} ' || ${ref} || ' is gone'
    WHEN now_.amount <> ${amount} OR now_.currency <> ${currency} THEN '${side} ' || ${ref}
      || ' changed from ' || ${amount}::text || ' ' || ${currency} || ' to '
      || now_.amount::text || ' ' || now_.currency
    WHEN EXISTS (SELECT 1 FROM ${schema}.match_members mm
      WHERE mm.side = '${side}' AND mm.record_kind = ${kind} AND mm.record_ref = ${ref}
        AND ${notProposed("mm", schema)}
        AND NOT (d.decision = 'confirmed' AND mm.match_id = 'confirmed:' || d.entry_id))
      THEN '${side} ' || ${ref} || ' is paired by a rule now' END`);

/**
 * Lapses every decision not lapsed yet whose records no longer hold; answers how many. One
 * statement, inside the run's transaction (run-match.ts), under its lock. The stamp makes the
 * audit row a one-off and keeps the decision from applying again should the figures come back:
 * the pair is proposed again, to be decided again (decide-proposal.ts clears the stamp).
 */
export async function lapseProposalDecisions(db: Db, runId: string): Promise<number> {
  // An incremental run's copies of the records (pg_temp) hold its scope only: read the real ones.
  const [where] = await queryText<{ schema: string }>(db, REAL_SCHEMA);
  const schema = where?.schema as string;
  const stored = (table: string) => sql.raw(`${schema}.${table}`);
  const lapsed = await queryRows<{ break_id: string }>(
    db,
    sql`WITH checked AS (
        SELECT d.entry_id, d.item_ref, d.break_id, d.item_currency,
          'proposal decision lapsed: ' || d.decision || ' by ' || d.actor || ': '
            || concat_ws('; ', l.what, p.what) || ' (match run ' || ${runId} || ')' AS text
        FROM proposal_decisions d
        CROSS JOIN LATERAL (SELECT ${why(schema, "ledger", "'ledger_entry'", "d.entry_id", "d.entry_amount", "d.entry_currency")} AS what
          FROM (SELECT 1) one LEFT JOIN LATERAL (SELECT e.amount, e.currency FROM ${stored("ledger_entries")} e
            WHERE e.entry_id = d.entry_id) now_ ON true) l
        CROSS JOIN LATERAL (SELECT ${why(schema, "provider", "'card_transaction'", "d.item_ref", "d.item_amount", "d.item_currency")} AS what
          FROM (SELECT 1) one LEFT JOIN LATERAL (SELECT p.amount, p.currency FROM ${stored("provider_items")} p
            WHERE p.kind = 'card_transaction' AND p.item_ref = d.item_ref LIMIT 1) now_ ON true) p
        WHERE d.lapsed_at IS NULL AND (l.what IS NOT NULL OR p.what IS NOT NULL)
        FOR UPDATE OF d
      ), stamped AS (
        UPDATE proposal_decisions d SET lapsed_at = clock_timestamp()
        FROM checked c WHERE d.entry_id = c.entry_id AND d.item_ref = c.item_ref
      ), audit AS (
        INSERT INTO break_actions (break_id, actor, at, action, text, class, amount, currency)
        SELECT c.break_id, ${RECONCILER_ACTOR}, clock_timestamp(), 'lapse', c.text,
          coalesce(b.class, 'proposed_match'), coalesce(b.amount, 0),
          coalesce(b.currency, c.item_currency)
        FROM checked c LEFT JOIN breaks b ON b.break_id = c.break_id
        RETURNING break_id
      )
      UPDATE break_workflow w SET last_action = 'lapse', last_actor = ${RECONCILER_ACTOR},
        last_action_at = clock_timestamp()
      FROM (SELECT DISTINCT break_id FROM audit) a WHERE w.break_id = a.break_id
      RETURNING w.break_id`,
  );
  return lapsed.length;
}
