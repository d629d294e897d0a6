// Due dates of open breaks (config/due-settings.ts): the record's business time (occurred_at,
// its age; when it has none, when the break opened or was first seen) plus the days of its class
// (its own, or its priority's), halved and rounded up when its amount at stake is at least the
// large amount. Only an open break is due: a pending one is still inside its grace period, an
// accepted or resolved one is no longer work. Overdue: due before the latest run's as_of (the
// time every age is measured from), so the queue, the report and the views agree.
//
// The rule itself is SQL, finance_due_at (migration 0030), so the views finance people read
// (finance_open_breaks.due_at, overdue) and the queue compute it one way. The settings come from
// the environment; the views read them from due_settings, which storeDueSettings keeps equal to
// the settings of the last reconciler command that opened the database for writing.
import { type SQL, sql } from "drizzle-orm";
import type { DueSettings } from "../config/due-settings";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";

/** SQL: a row `s` of days (int[]), class_days (jsonb) and large_amount (numeric). */
const settingsRow = (due: DueSettings | undefined): SQL =>
  due === undefined
    ? sql`(SELECT days, class_days, large_amount FROM finance_due_settings)`
    : sql`(SELECT ${`{${due.days.join(",")}}`}::int[] AS days,
        ${JSON.stringify(due.classDays)}::jsonb AS class_days,
        ${due.largeAmount}::numeric AS large_amount)`;

/** SQL: the time overdue is measured at (the latest run's as_of, as the ages are). */
const DUE_CLOCK = sql.raw(`(SELECT coalesce(max(as_of), now()) FROM finance_latest_run)`);

/**
 * finance_break_workflow with due_at (and overdue) added, under the same name, so every query
 * over the view reads the due date as a column. `due`: the settings to use; absent, the stored
 * ones (finance_due_settings), as the views use them.
 */
export function withDueDates(due?: DueSettings): SQL {
  return sql`(SELECT d.*, coalesce(d.due_at < ${DUE_CLOCK}, false) AS overdue FROM (
      SELECT w.*, finance_due_at(w.status, w.class, w.priority, w.amount,
        coalesce(w.occurred_at, w.opened_at, w.first_seen_at), s.days, s.class_days,
        s.large_amount) AS due_at
      FROM finance_break_workflow w CROSS JOIN ${settingsRow(due)} s) d)`;
}

/**
 * Stores `due` as the settings the views read (due_settings), when they differ from the stored
 * ones; answers whether it wrote. Every command that opens the database for writing calls it
 * (cli/command-support.ts), so the views follow the environment the reconciler runs with.
 */
export async function storeDueSettings(db: Db, due: DueSettings): Promise<boolean> {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`INSERT INTO due_settings (id, days, class_days, large_amount)
      VALUES (1, ${`{${due.days.join(",")}}`}::int[], ${JSON.stringify(due.classDays)}::jsonb,
        ${due.largeAmount}::numeric)
      ON CONFLICT (id) DO UPDATE SET days = excluded.days, class_days = excluded.class_days,
        large_amount = excluded.large_amount, updated_at = now()
      WHERE (due_settings.days, due_settings.class_days, due_settings.large_amount)
        IS DISTINCT FROM (excluded.days, excluded.class_days, excluded.large_amount)
      RETURNING id`,
  );
  return rows.length > 0;
}
