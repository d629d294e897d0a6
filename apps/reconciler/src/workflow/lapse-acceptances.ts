// Acceptances lapse when the difference changes: called at the end of every match run that
// wrote its breaks, it reopens each accepted break whose class, amount or currency is no longer
// what was accepted, with an audit row (actor "reconciler") saying what changed.
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";
import { CLEAR_ACCEPTANCE } from "./break-actions";

/** The actor of the audit rows the reconciler writes itself. */
export const RECONCILER_ACTOR = "reconciler";

/**
 * Reopens the accepted breaks the run changed; answers how many lapsed. A resolved break keeps
 * its acceptance and its history (it is no longer a difference; if it comes back unchanged it
 * is still accepted).
 */
export async function lapseChangedAcceptances(db: Db, runId: string): Promise<number> {
  return db.transaction(async (tx) => {
    const lapsed = await queryRows<{ break_id: string }>(
      tx,
      sql`WITH changed AS (
          SELECT w.break_id, b.class, b.amount, b.currency,
            concat_ws('; ',
              CASE WHEN b.class <> w.accepted_class
                THEN 'class changed from ' || w.accepted_class || ' to ' || b.class END,
              CASE WHEN b.amount <> w.accepted_amount
                THEN 'amount changed from ' || w.accepted_amount || ' to ' || b.amount END,
              CASE WHEN b.currency IS DISTINCT FROM w.accepted_currency
                THEN 'currency changed from ' || coalesce(w.accepted_currency, '-') || ' to ' || coalesce(b.currency, '-') END
            ) AS why
          FROM break_workflow w JOIN breaks b ON b.break_id = w.break_id
          WHERE w.accepted_at IS NOT NULL AND b.status <> 'resolved'
            AND (b.class <> w.accepted_class OR b.amount <> w.accepted_amount
              OR b.currency IS DISTINCT FROM w.accepted_currency)
          FOR UPDATE OF w
        ), audit AS (
          INSERT INTO break_actions (break_id, actor, action, text, class, amount, currency)
          SELECT break_id, ${RECONCILER_ACTOR}, 'lapse',
            'acceptance lapsed: ' || why || ' (match run ' || ${runId} || ')', class, amount, currency
          FROM changed
        )
        UPDATE break_workflow w SET ${CLEAR_ACCEPTANCE}, last_action = 'lapse',
          last_actor = ${RECONCILER_ACTOR}, last_action_at = now()
        FROM changed c WHERE w.break_id = c.break_id
        RETURNING w.break_id`,
    );
    return lapsed.length;
  });
}
