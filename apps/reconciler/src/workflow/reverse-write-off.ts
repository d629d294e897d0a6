// A write-off's journal entries are reversed when its acceptance ends: a match run lapses it
// (the break's figures changed) or resolves its break (resolved-write-offs.ts), or someone
// reopens the break. The journal is append-only, so
// the reversal is a new entry per booked one (amount negated, reverses_id naming it); a second
// write-off of the new figures then books only its own difference, never on top of the first.
import { type SQL, sql } from "drizzle-orm";

/** SQL: journal entry `e` is a booking (not a reversal) that no entry reverses yet. */
export const unreversed = (e: string) =>
  sql.raw(`${e}.reverses_id IS NULL
    AND NOT EXISTS (SELECT 1 FROM journal_entries r WHERE r.reverses_id = ${e}.id)`);

/**
 * The INSERT booking the reversal of every journal entry not reversed yet of the breaks `ended`
 * answers (columns break_id, action_id: the lapse's or reopen's audit row, why), dated the day
 * it is booked (UTC) and signed by `actor`. Entries of a break never written off: none.
 */
export function reverseWriteOffs(ended: SQL, actor: string): SQL {
  return sql`INSERT INTO journal_entries (entry_date, account, amount, currency, break_id, reference,
      actor, reason, action_id, reverses_id)
    SELECT (clock_timestamp() AT TIME ZONE 'UTC')::date, e.account, -e.amount, e.currency, e.break_id,
      'reversal of journal entry ' || e.id || ': ' || e.reference, ${actor}, x.why, x.action_id, e.id
    FROM journal_entries e JOIN (${ended}) x ON x.break_id = e.break_id
    WHERE ${unreversed("e")}`;
}
