// Acceptances lapse when the difference changes: checked inside every match run that wrote its
// breaks (or reused them), after those writes, it reopens each accepted break whose class,
// amount, currency, signed provider or ledger amount, or ledger currency is no longer what was
// accepted, with an audit row (actor "reconciler") saying what changed, and reverses the journal
// entries of a write-off it ends (reverse-write-off.ts).
import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";
import { CLEAR_ACCEPTANCE, ledgerCurrencies, RECONCILER_ACTOR } from "./break-actions";
import { reverseWriteOffs } from "./reverse-write-off";

export { RECONCILER_ACTOR };

/** `what changed from X to Y` when the break's column differs from the accepted one ('-': null). */
const changed = (what: string, now: string, accepted: string) =>
  sql.raw(`CASE WHEN ${now} IS DISTINCT FROM ${accepted} THEN '${what} changed from '
    || coalesce(${accepted}::text, '-') || ' to ' || coalesce(${now}::text, '-') END`);

/**
 * Reopens the accepted breaks whose difference changed; answers how many lapsed. One statement,
 * so it is atomic wherever it runs. runMatch runs it inside the run's transaction, after the
 * breaks writes: if it fails the whole run rolls back (and the next run does it all again), an
 * action on a break the run rewrote waits for the run (break-actions.ts locks the breaks row
 * first) and then sees the new figures, and an acceptance committed before is checked here.
 * breaks.amount is absolute, so the signed sides are compared too: a difference of +1,250.50
 * that turns into -1,250.50 lapses. The lapse is stamped with the clock, not now(): a run's
 * transaction starts before the acceptances committed during it. A resolved break keeps its
 * acceptance and its history (it is no longer a difference; if it comes back unchanged it is
 * still accepted), unless it was written off: resolved-write-offs.ts reverses that one.
 */
export async function lapseChangedAcceptances(db: Db, runId: string): Promise<number> {
  const lapsed = await queryRows<{ break_id: string }>(
    db,
    sql`WITH checked AS (
        SELECT w.break_id, b.class, b.amount, b.currency,
          concat_ws('; ',
            ${changed("class", "b.class", "w.accepted_class")},
            ${changed("amount", "b.amount", "w.accepted_amount")},
            ${changed("currency", "b.currency", "w.accepted_currency")},
            ${changed("provider amount", "b.provider_amount", "w.accepted_provider_amount")},
            ${changed("ledger amount", "b.ledger_amount", "w.accepted_ledger_amount")},
            ${changed("ledger currency", "l.currencies", "w.accepted_ledger_currencies")}
          ) AS why
        FROM break_workflow w JOIN breaks b ON b.break_id = w.break_id
          CROSS JOIN LATERAL (SELECT ${ledgerCurrencies("b.break_id")} AS currencies) l
        WHERE w.accepted_at IS NOT NULL AND b.status <> 'resolved'
          AND (b.class, b.amount, b.currency, b.provider_amount, b.ledger_amount, l.currencies)
            IS DISTINCT FROM (w.accepted_class, w.accepted_amount, w.accepted_currency,
              w.accepted_provider_amount, w.accepted_ledger_amount, w.accepted_ledger_currencies)
        FOR UPDATE OF w
      ), ${endAcceptances(sql`'acceptance lapsed: ' || why || ' (match run ' || ${runId} || ')'`)}`,
  );
  return lapsed.length;
}

/**
 * The end of an acceptance, after a CTE `checked` (break_id, class, amount, currency; its
 * break_workflow rows locked): one `lapse` audit row per break (actor "reconciler") with `text`,
 * its write-off's journal entries reversed, its acceptance cleared. Answers the breaks' ids.
 */
export const endAcceptances = (text: SQL) => sql`audit AS (
        INSERT INTO break_actions (break_id, actor, at, action, text, class, amount, currency)
        SELECT break_id, ${RECONCILER_ACTOR}, clock_timestamp(), 'lapse', ${text}, class, amount, currency
        FROM checked
        RETURNING id AS action_id, break_id, text AS why
      ), reversed AS (
        ${reverseWriteOffs(sql`SELECT break_id, action_id, why FROM audit`, RECONCILER_ACTOR)}
      )
      UPDATE break_workflow w SET ${CLEAR_ACCEPTANCE}, last_action = 'lapse',
        last_actor = ${RECONCILER_ACTOR}, last_action_at = clock_timestamp()
      FROM checked c WHERE w.break_id = c.break_id
      RETURNING w.break_id`;
