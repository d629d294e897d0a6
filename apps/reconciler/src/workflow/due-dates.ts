// Due dates of open breaks (config/due-settings.ts): the record's business time (occurred_at,
// its age; when it has none, when the break opened or was first seen) plus the days of its class
// (its own, or its priority's), halved and rounded up when its amount at stake is at least the
// large amount. Only an open break is due: a pending one is still inside its grace period, an
// accepted or resolved one is no longer work. Overdue: due before the latest run's as_of (the
// time every age is measured from), so the queue, the report and the views agree.
import { type SQL, sql } from "drizzle-orm";
import { DEFAULT_DUE, type DueSettings } from "../config/due-settings";

/** SQL: the days a break of row `w` (class, priority, amount) has, under `due`. */
function daysSql(due: DueSettings, w: string): string {
  const byClass = Object.entries(due.classDays)
    .map(([name, days]) => `WHEN '${name.replaceAll("'", "''")}' THEN ${days}`)
    .join(" ");
  const byPriority = `CASE ${w}.priority ${due.days.map((d, i) => `WHEN ${i + 1} THEN ${d}`).join(" ")} ELSE ${due.days[3]} END`;
  const base = byClass === "" ? byPriority : `CASE ${w}.class ${byClass} ELSE ${byPriority} END`;
  return `CASE WHEN ${w}.amount >= ${due.largeAmount}::numeric THEN ceil((${base}) / 2.0)::int ELSE (${base}) END`;
}

/** SQL (timestamptz or NULL): when the open break of row `w` of finance_break_workflow is due. */
export function dueAtSql(due: DueSettings = DEFAULT_DUE, w = "finance_break_workflow"): SQL {
  return sql.raw(`CASE WHEN ${w}.status = 'open' THEN
      coalesce(${w}.occurred_at, ${w}.opened_at, ${w}.first_seen_at)
        + make_interval(days => ${daysSql(due, w)}) END`);
}

/** SQL: the time overdue is measured at (the latest run's as_of, as the ages are). */
export const DUE_CLOCK = sql.raw(`(SELECT coalesce(max(as_of), now()) FROM finance_latest_run)`);

/**
 * finance_break_workflow with due_at (and overdue) added, under the same name, so every query
 * over the view reads the due date as a column.
 */
export function withDueDates(due: DueSettings = DEFAULT_DUE): SQL {
  return sql`(SELECT d.*, d.due_at < ${DUE_CLOCK} AS overdue FROM (
      SELECT w.*, ${dueAtSql(due, "w")} AS due_at FROM finance_break_workflow w) d)`;
}
