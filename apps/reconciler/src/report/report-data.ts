// What a report shows, read from the finance views: the latest run, the daily statement, the
// break queue, breaks by class and day, stale authorizations, fees and sync health.
import { subtractDecimal, sumDecimals } from "@merchantkit/core";
import { type SQL, sql } from "drizzle-orm";
import type { DueSettings } from "../config/due-settings";
import type { Db } from "../db/database";
import { entityScope } from "../db/entity-scope";
import { queryRows } from "../db/query-rows";
import { utcText } from "../db/utc-text";
import { detailText } from "../money-text";
import { type QueueTotal, queueTotals } from "../workflow/queue-totals";
import { FiguresCache } from "./figures-cache";

export interface ReportRun {
  id: string;
  asOf: string;
  verdict: string;
  reasons: string[];
  stats: Record<string, number>;
  durationMs: number | null;
}

/** The amounts the statement and the bridge both show of a currency's lines. */
interface LineTotals {
  currency: string;
  providerTotal: string;
  ledgerTotal: string;
  difference: string;
  timing: string;
  pending: string;
  unexplained: string;
  /** Differences of accepted breaks (the statement: part of explainedByBreaks, not of byClass). */
  accepted: string;
}

export interface StatementRow extends LineTotals {
  day: string;
  explainedByBreaks: string;
  byClass: Record<string, string>;
}

export interface QueueRow {
  priority: number;
  class: string;
  status: string;
  breakId: string;
  providerRef: string | null;
  entryId: string | null;
  currency: string | null;
  amount: string;
  ageDays: number | null;
  detail: string;
  assignee: string | null;
}

export interface DayClassRow {
  day: string;
  class: string;
  count: number;
  /** Σ signed effect (finance_break_effects) per currency, one entry per currency. */
  money: { currency: string; amount: string }[];
}

export interface BridgeRow extends LineTotals {
  /** The signed sum of the open breaks' effects in this currency. */
  openBreaks: string;
}

/**
 * Breaks of one class by their signed effect in one currency (finance_break_effects: provider
 * - ledger; a currency_mismatch counts under both its currencies). Amounts are never summed
 * across currencies.
 */
export interface ClassTotal {
  class: string;
  currency: string;
  count: number;
  amount: string;
}

/**
 * Overdue open breaks in one currency, as `breaks list --overdue` totals them (queue-totals.ts):
 * how many are in it (their own currency, holds such as stale authorizations included), their
 * money at stake, and the signed effect of every overdue break touching it (provider - ledger,
 * finance_break_effects: part of the bridge's open breaks; a hold has none).
 */
export type OverdueRow = QueueTotal;

export interface ReportData {
  /** The day the report is about (YYYY-MM-DD), or undefined for every day. */
  date: string | undefined;
  /**
   * The entities the report is of ('' the merchant itself, a sub-merchant's merchantNo), or
   * undefined for the whole platform. A report of some entities shows their figures only: no
   * platform total, and the run's verdict counted on their breaks.
   */
  scope: readonly string[] | undefined;
  run: ReportRun | undefined;
  statement: StatementRow[];
  /**
   * The bridge per currency over the report's days: difference = timing + openBreaks + pending
   * + accepted + unexplained, to the cent (finance_currency_bridge; for one day, that day's
   * finance_daily_statement rows).
   */
  currencies: BridgeRow[];
  /**
   * The bridge of each entity per currency (a sub-merchant's merchantNo, '' for the merchant
   * itself), from the same statement lines: `currencies` is their sum per currency.
   */
  entities: (BridgeRow & { entity: string })[];
  queue: QueueRow[];
  openBreaks: number;
  pendingItems: number;
  /** Accepted breaks, each once (acceptedByClass has a line per class and currency). */
  acceptedBreaks: number;
  /** Open (not accepted) breaks per class and currency. */
  byClass: ClassTotal[];
  /** Overdue open breaks per currency. */
  overdue: OverdueRow[];
  /** Accepted breaks per class and currency, and the latest acceptances with their reasons. */
  acceptedByClass: ClassTotal[];
  accepted: {
    breakId: string;
    class: string;
    amount: string;
    currency: string | null;
    acceptedBy: string;
    acceptedAt: string;
    reason: string;
  }[];
  /** Open breaks per day (UTC) and class, with their signed effects per currency. */
  byClassAndDay: DayClassRow[];
  staleAuthorizations: { currency: string; bucket: string; count: number; openHold: string }[];
  fees: {
    feeType: string;
    currency: string;
    providerTotal: string;
    ledgerTotal: string;
    difference: string;
  }[];
  syncHealth: {
    stream: string;
    watermark: string | null;
    lagMinutes: number | null;
    lastOutcome: string | null;
    windowsToReread: number;
    serviceIdsDue: number | null;
  }[];
}

type Rows = Record<string, string>[];

/**
 * The report's figures that scan every record: the statement (the bridge is its sum), the
 * fees, and the bridge per entity.
 */
interface Figures {
  statement: Rows;
  fees: Rows;
  entities: Rows;
}

/** Kept figures for a reader that loads the report again and again (the console). */
export type ReportFiguresCache = FiguresCache<Figures>;

export const reportFiguresCache = (): ReportFiguresCache =>
  new FiguresCache<Figures>(readDayFigures);

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Reads the report of `date` (a UTC day) or of every day; `queueLimit` caps the break list. */
export async function loadReport(
  db: Db,
  opts: {
    date?: string | undefined;
    queueLimit?: number;
    due?: DueSettings | undefined;
    cache?: ReportFiguresCache;
    /** Only these entities' figures (ReportData.scope); the whole platform when absent. */
    entities?: readonly string[] | undefined;
  } = {},
): Promise<ReportData> {
  const date = opts.date;
  const scope = opts.entities;
  if (date !== undefined && !DAY.test(date)) throw new RangeError("date must be YYYY-MM-DD");
  const onDay = (column: string) =>
    date === undefined ? sql`true` : sql`${sql.raw(column)}::date = ${date}::date`;
  // The breaks of the report's entities (every entity's without a scope).
  const inScope = (column = "entity") =>
    scope === undefined ? sql`true` : entityScope(column, scope);
  const [run] = await queryRows<{
    id: string;
    as_of: string;
    verdict: string;
    reasons: string;
    stats: string;
    duration_ms: number | null;
  }>(
    db,
    sql`SELECT id, ${utcText("as_of")} AS as_of, verdict, reasons, stats, duration_ms FROM finance_latest_run`,
  );
  // One entity's or a limited account's figures are read afresh: the kept days are the platform's.
  const days =
    opts.cache && scope === undefined
      ? await opts.cache.read(db)
      : await readDayFigures(db, date === undefined ? undefined : [date], scope);
  const { statement, fees, entities } = await keptFigures(db, days, date);
  const queue = await queryRows<QueueRow & Record<string, unknown>>(
    db,
    sql`SELECT priority, class, status, break_id AS "breakId", provider_ref AS "providerRef",
      entry_id AS "entryId", currency, amount::text, age_days AS "ageDays", detail, assignee
      FROM finance_open_breaks WHERE ${onDay("occurred_at")} AND ${inScope()} LIMIT ${opts.queueLimit ?? 50}`,
  );
  const [counts] = await queryRows<{ open: number; pending: number; accepted: number }>(
    db,
    sql`SELECT count(*) FILTER (WHERE status = 'open')::int AS open,
      count(*) FILTER (WHERE status = 'pending')::int AS pending,
      count(*) FILTER (WHERE status = 'accepted')::int AS accepted
      FROM finance_break_workflow WHERE ${onDay("occurred_at")} AND ${inScope()}`,
  );
  // A break without a currency (none today) still gets its own line, never a mixed one.
  const classTotals = (status: string) =>
    queryRows<ClassTotal & Record<string, unknown>>(
      db,
      sql`SELECT class, coalesce(currency, '') AS currency, count(DISTINCT break_id)::int AS count,
        sum(effect)::text AS amount
        FROM finance_break_effects WHERE status = ${status} AND ${onDay("occurred_at")} AND ${inScope()}
        GROUP BY class, currency ORDER BY class, currency`,
    );
  const overdue = await queueTotals(db, {
    status: ["open"],
    overdue: true,
    due: opts.due,
    entities: scope,
    day: date,
  });
  const accepted = await queryRows<ReportData["accepted"][number]>(
    db,
    sql`SELECT break_id AS "breakId", class, amount::text AS amount, currency, accepted_by AS "acceptedBy",
      ${utcText("accepted_at")} AS "acceptedAt",
      coalesce(accepted_reason, '') AS reason
      FROM finance_break_workflow WHERE status = 'accepted' AND ${onDay("occurred_at")} AND ${inScope()}
      ORDER BY "acceptedAt" DESC, break_id LIMIT 100`,
  );
  const byClassAndDay = await queryRows<{ day: string; class: string; count: number }>(
    db,
    sql`SELECT (occurred_at AT TIME ZONE 'UTC')::date::text AS day, class, count(*)::int AS count
      FROM finance_break_workflow
      WHERE status = 'open' AND occurred_at IS NOT NULL AND ${onDay("occurred_at")} AND ${inScope()}
      GROUP BY 1, 2 ORDER BY 1, 2`,
  );
  const dayMoney = await queryRows<{
    day: string;
    class: string;
    currency: string;
    amount: string;
  }>(
    db,
    sql`SELECT (occurred_at AT TIME ZONE 'UTC')::date::text AS day, class, currency, sum(effect)::text AS amount
      FROM finance_break_effects WHERE status = 'open' AND occurred_at IS NOT NULL AND ${onDay("occurred_at")} AND ${inScope()}
      GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
  );
  // Card authorizations are the merchant's own (docs/assumptions.md, "Entities").
  const holdsInScope = scope === undefined || scope.includes("");
  const staleAuthorizations = await queryRows<ReportData["staleAuthorizations"][number]>(
    db,
    sql`SELECT card_currency AS currency, age_bucket AS bucket, count(*)::int AS count,
      sum(open_hold)::text AS "openHold"
      FROM finance_stale_authorizations WHERE stale AND ${holdsInScope} GROUP BY 1, 2 ORDER BY 1, 2`,
  );
  const syncHealth = await queryRows<ReportData["syncHealth"][number]>(
    db,
    sql`SELECT stream, ${utcText("watermark")} AS watermark,
      lag_minutes::int AS "lagMinutes", last_run_outcome AS "lastOutcome",
      coalesce(windows_to_reread, 0)::int AS "windowsToReread", service_ids_due::int AS "serviceIdsDue"
      FROM finance_sync_health ORDER BY stream`,
  );
  const statementRows: StatementRow[] = statement.map((r) => ({
    ...(r as unknown as StatementRow),
    // jsonb text: the amounts are numbers there, so read them back as their digits.
    byClass: Object.fromEntries(
      [...(r.byClass as string).matchAll(/"([a-z_]+)":\s*(-?[\d.]+)/g)].map((m) => [m[1], m[2]]),
    ) as Record<string, string>,
  }));
  const openBreaks = counts?.open ?? 0;
  const pendingItems = counts?.pending ?? 0;
  return {
    date,
    scope,
    run: run
      ? {
          id: run.id,
          asOf: run.as_of,
          // Of some entities: the run's rule (match/run-match.ts) on their own breaks, and no
          // platform-wide counts.
          verdict:
            scope === undefined || run.verdict === "incomplete"
              ? run.verdict
              : openBreaks > 0
                ? "breaks"
                : pendingItems > 0
                  ? "reconciled_with_pending"
                  : "reconciled",
          reasons: JSON.parse(run.reasons) as string[],
          stats: scope === undefined ? (JSON.parse(run.stats) as Record<string, number>) : {},
          durationMs: run.duration_ms === null ? null : Number(run.duration_ms),
        }
      : undefined,
    statement: statementRows,
    currencies: bridgeOf(statementRows),
    entities: entities as unknown as ReportData["entities"],
    queue: queue.map((r) => ({ ...r, detail: detailText(r.detail) })),
    openBreaks,
    pendingItems,
    acceptedBreaks: counts?.accepted ?? 0,
    byClass: await classTotals("open"),
    acceptedByClass: await classTotals("accepted"),
    overdue,
    accepted,
    byClassAndDay: byClassAndDay.map((r) => ({
      ...r,
      money: dayMoney
        .filter((m) => m.day === r.day && m.class === r.class)
        .map((m) => ({ currency: m.currency, amount: m.amount })),
    })),
    staleAuthorizations,
    fees: fees as unknown as ReportData["fees"],
    syncHealth,
  };
}

/**
 * The verdict and its counts are the latest run's: open and pending breaks not accepted when it
 * ran. The queue's counts are live: an accept or a reopen since the run changes them, and the
 * next match run (a cheap reuse when nothing else changed) its verdict. Says so when they
 * differ (the whole report only: a day's counts are not the run's).
 */
export function changedSinceRun(data: ReportData): string | undefined {
  const run = data.run;
  if (!run || data.date !== undefined || data.scope !== undefined || run.verdict === "incomplete")
    return undefined;
  const open = run.stats.openBreaks ?? 0;
  const pending = run.stats.pendingItems ?? 0;
  if (open === data.openBreaks && pending === data.pendingItems) return undefined;
  return `the run counted ${open} open, ${pending} pending: breaks were accepted or reopened since; the next match run's verdict counts them`;
}

/**
 * The bridge columns of a group of statement lines, as finance_entity_currency_bridge sums
 * them (the report's entity bridges, per day).
 */
const ENTITY_BRIDGE = sql.raw(`sum(provider_amount)::text AS "providerTotal",
  sum(ledger_amount)::text AS "ledgerTotal", sum(provider_amount - ledger_amount)::text AS difference,
  coalesce(sum(provider_amount - ledger_amount) FILTER (WHERE explanation = 'matched'), 0)::text AS timing,
  coalesce(sum(provider_amount - ledger_amount) FILTER (WHERE explanation NOT IN ('matched', 'pending', 'unexplained', 'accepted')), 0)::text AS "openBreaks",
  coalesce(sum(provider_amount - ledger_amount) FILTER (WHERE explanation = 'pending'), 0)::text AS pending,
  coalesce(sum(provider_amount - ledger_amount) FILTER (WHERE explanation = 'accepted'), 0)::text AS accepted,
  coalesce(sum(provider_amount - ledger_amount) FILTER (WHERE explanation = 'unexplained'), 0)::text AS unexplained`);

const dayList = (days: string[]) => `{${days.join(",")}}`;

/**
 * The figures of `days` (every day when undefined) per day, of the entities `scope` (every
 * entity's when undefined): a day's figures are computed alone and the days' summed
 * (keptFigures) to the report's.
 */
async function readDayFigures(
  db: Db,
  days: string[] | undefined,
  scope?: readonly string[],
): Promise<Map<string, Figures>> {
  if (days?.some((day) => !DAY.test(day))) throw new RangeError("days must be YYYY-MM-DD");
  const onDays = (column: string) =>
    days === undefined ? sql`true` : sql`${sql.raw(column)} = ANY (${dayList(days)}::date[])`;
  const inScope = scope === undefined ? sql`true` : entityScope("entity", scope);
  const statement = await queryRows<Record<string, string>>(
    db,
    sql`SELECT day::text AS day, currency, provider_total::text AS "providerTotal",
        ledger_total::text AS "ledgerTotal", difference::text, timing::text,
        explained_by_breaks::text AS "explainedByBreaks", pending::text, unexplained::text,
        accepted::text, by_class::text AS "byClass"
      FROM ${statementOf(inScope)} WHERE ${onDays("day")} ORDER BY day, currency`,
  );
  const fees = await queryRows<Record<string, string>>(
    db,
    sql`SELECT day::text AS day, fee_type AS "feeType", currency, provider_total::text AS "providerTotal",
      ledger_total::text AS "ledgerTotal", difference::text FROM finance_fees_by_type
      WHERE ${onDays("day")} AND ${scope === undefined || scope.includes("")}`,
  );
  const entities = await queryRows<Record<string, string>>(
    db,
    sql`SELECT day::text AS day, entity, currency, ${ENTITY_BRIDGE}
      FROM finance_statement_lines WHERE ${onDays("day")} AND ${inScope}
      GROUP BY day, entity, currency`,
  );
  const byDay = new Map<string, Figures>();
  // A record without a time has a line without a day (NULL): kept under "".
  const of = (day: string | null | undefined) => {
    const key = day ?? "";
    const figures = byDay.get(key) ?? { statement: [], fees: [], entities: [] };
    byDay.set(key, figures);
    return figures;
  };
  for (const row of statement) of(row.day).statement.push(row);
  for (const row of fees) of(row.day).fees.push(row);
  for (const row of entities) of(row.day).entities.push(row);
  return byDay;
}

/**
 * The report's figures of `date` (every day when undefined) from the days' figures: the
 * statement's rows in day order (a row without a day last, as ORDER BY puts NULL), the fees and
 * the entity bridges summed over the days by Postgres (numeric sums).
 */
async function keptFigures(
  db: Db,
  days: ReadonlyMap<string, Figures>,
  date: string | undefined,
): Promise<Figures> {
  const keys = date === undefined ? [...days.keys()] : days.has(date) ? [date] : [];
  keys.sort((a, b) => (a === "" ? 1 : b === "" ? -1 : a < b ? -1 : a > b ? 1 : 0));
  const chosen = keys.map((day) => days.get(day) as Figures);
  const fees = await queryRows<Record<string, string>>(
    db,
    sql`SELECT "feeType", currency, sum("providerTotal")::text AS "providerTotal",
        sum("ledgerTotal")::text AS "ledgerTotal", sum(difference)::text AS difference
      FROM jsonb_to_recordset(${JSON.stringify(chosen.flatMap((f) => f.fees))}::jsonb)
        AS f("feeType" text, currency text, "providerTotal" numeric, "ledgerTotal" numeric, difference numeric)
      GROUP BY "feeType", currency ORDER BY "feeType", currency`,
  );
  const entities = await queryRows<Record<string, string>>(
    db,
    sql`SELECT entity, currency, sum("providerTotal")::text AS "providerTotal",
        sum("ledgerTotal")::text AS "ledgerTotal", sum(difference)::text AS difference,
        sum(timing)::text AS timing, sum("openBreaks")::text AS "openBreaks", sum(pending)::text AS pending,
        sum(accepted)::text AS accepted, sum(unexplained)::text AS unexplained
      FROM jsonb_to_recordset(${JSON.stringify(chosen.flatMap((f) => f.entities))}::jsonb)
        AS f(entity text, currency text, "providerTotal" numeric, "ledgerTotal" numeric, difference numeric,
          timing numeric, "openBreaks" numeric, pending numeric, accepted numeric, unexplained numeric)
      GROUP BY entity, currency ORDER BY entity, currency`,
  );
  return { statement: chosen.flatMap((f) => f.statement), fees, entities };
}

/**
 * finance_daily_statement of the lines `inScope` (every line's: `true`), column for column: the
 * view's own query (migration 0005) over finance_statement_lines, which carry the entity.
 */
function statementOf(inScope: SQL): SQL {
  return sql`(WITH by_line AS (
      SELECT day, currency, explanation, sum(provider_amount) AS provider_amount,
        sum(ledger_amount) AS ledger_amount, sum(provider_amount - ledger_amount) AS difference
      FROM finance_statement_lines WHERE ${inScope} GROUP BY day, currency, explanation)
    SELECT day, currency, sum(provider_amount) AS provider_total, sum(ledger_amount) AS ledger_total,
      sum(difference) AS difference,
      coalesce(sum(difference) FILTER (WHERE explanation = 'matched'), 0) AS timing,
      coalesce(sum(difference) FILTER (WHERE explanation NOT IN ('matched', 'pending', 'unexplained')), 0) AS explained_by_breaks,
      coalesce(sum(difference) FILTER (WHERE explanation = 'pending'), 0) AS pending,
      coalesce(sum(difference) FILTER (WHERE explanation = 'unexplained'), 0) AS unexplained,
      coalesce(jsonb_object_agg(explanation, difference) FILTER (WHERE explanation NOT IN ('matched', 'pending', 'unexplained', 'accepted')), '{}'::jsonb) AS by_class,
      coalesce(sum(difference) FILTER (WHERE explanation = 'accepted'), 0) AS accepted
    FROM by_line GROUP BY day, currency) AS scoped_statement`;
}

/**
 * The bridge per currency: the sum of the statement's rows of that currency, column by column
 * (for every day, what finance_currency_bridge holds: its lines are the statement's).
 */
function bridgeOf(statement: StatementRow[]): BridgeRow[] {
  const currencies = [...new Set(statement.map((r) => r.currency))].sort();
  return currencies.map((currency) => {
    const rows = statement.filter((r) => r.currency === currency);
    const sum = (column: (r: StatementRow) => string) => sumDecimals(rows.map(column));
    return {
      currency,
      providerTotal: sum((r) => r.providerTotal),
      ledgerTotal: sum((r) => r.ledgerTotal),
      difference: sum((r) => r.difference),
      timing: sum((r) => r.timing),
      openBreaks: sum((r) => subtractDecimal(r.explainedByBreaks, r.accepted)),
      pending: sum((r) => r.pending),
      accepted: sum((r) => r.accepted),
      unexplained: sum((r) => r.unexplained),
    };
  });
}
