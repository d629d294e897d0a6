// Reading breaks the way finance works them: the queue with filters and sorting, and one
// break with its records (the provider record, the ledger entry) and its audit history.
import { type SQL, sql } from "drizzle-orm";
import type { DueSettings } from "../config/due-settings";
import type { Db } from "../db/database";
import { entityScope } from "../db/entity-scope";
import { isTrue, queryRows } from "../db/query-rows";
import { utcText } from "../db/utc-text";
import { detailText } from "../money-text";
import { type AuditRow, ledgerCurrencies } from "./break-actions";
import { type BreakResolution, breakResolution } from "./break-resolution";
import { withDueDates } from "./due-dates";

export const WORKFLOW_STATUSES = ["open", "pending", "accepted", "resolved"] as const;
export type WorkflowStatus = (typeof WORKFLOW_STATUSES)[number];
export const QUEUE_SORTS = ["priority", "amount", "age", "class", "last_action", "due"] as const;
export type QueueSort = (typeof QUEUE_SORTS)[number];

export interface BreakRow {
  breakId: string;
  class: string;
  priority: number;
  status: string;
  recordKind: string | null;
  providerRef: string | null;
  entryId: string | null;
  currency: string | null;
  /** Money at stake, positive, decimal text. */
  amount: string;
  providerAmount: string | null;
  ledgerAmount: string | null;
  detail: string;
  occurredAt: string | null;
  openedAt: string | null;
  /** "open for": whole days from when the break opened to the latest run's as_of. */
  daysOpen: number | null;
  /** "record age": whole days from its record's occurred_at to the latest run's as_of. */
  recordAgeDays: number | null;
  assignee: string | null;
  acceptedBy: string | null;
  acceptedAt: string | null;
  acceptedReason: string | null;
  lastAction: string | null;
  lastActor: string | null;
  lastActionAt: string | null;
  /** When the open break is due (due-dates.ts); null for a break that is not open. */
  dueAt: string | null;
  /** Due before the latest run's as_of. */
  overdue: boolean;
  /** The sub-merchant the break is of (its merchantNo), '' for the merchant itself. */
  entity: string;
}

export interface BreakFilter {
  /** Statuses to show; the queue (open and pending) when absent or empty. */
  status?: readonly WorkflowStatus[] | undefined;
  class?: string | undefined;
  /**
   * Currencies (ISO 4217 codes in capitals: currencyFilter): the breaks in one of them, or with a
   * record in one (a currency_mismatch's ledger side); any when absent.
   */
  currency?: readonly string[] | undefined;
  /** A name in any case, or "" for breaks nobody has. */
  assignee?: string | undefined;
  /** The entity the breaks are of: a sub-merchant's merchantNo, '' for the merchant itself. */
  entity?: string | undefined;
  /** The entities a limited console account sees (entityScope); every entity when absent. */
  entities?: readonly string[] | undefined;
  sort?: QueueSort | undefined;
  descending?: boolean | undefined;
  /** Only the overdue breaks (open, due before the latest run's as_of). */
  overdue?: boolean | undefined;
  /** Only the breaks whose record's time falls on this day (YYYY-MM-DD), as a day's report has them. */
  day?: string | undefined;
  /** The due-date settings (the defaults when absent). */
  due?: DueSettings | undefined;
  /** Breaks whose ids, records, card or amount match (queueSearch). */
  search?: QueueSearch | undefined;
  /** Rows to show (200 when absent; null: every row). */
  limit?: number | null | undefined;
  /** Rows to skip first (0 when absent): pages of one sort never skip or repeat a row. */
  offset?: number | undefined;
}

const ISO_CURRENCIES = new Set(Intl.supportedValuesOf("currency"));

/**
 * The queue's currency filter as typed, "usd, EUR" → ["USD", "EUR"] (codes are stored in
 * capitals); a code that is not ISO 4217 is answered as what is wrong, since a misspelt one
 * would list nothing and look like an empty queue.
 */
export function currencyFilter(text: string): string[] | string {
  const codes = text.split(",").map((code) => code.trim().toUpperCase());
  const bad = codes.filter((code) => !ISO_CURRENCIES.has(code));
  return bad.length === 0
    ? codes
    : `${bad.map((code) => JSON.stringify(code)).join(", ")} ${bad.length === 1 ? "is not an ISO 4217 currency code" : "are not ISO 4217 currency codes"}: name codes such as USD or usd,EUR`;
}

/**
 * What `--search` looks for: `text` in any case within the break's id, its provider record's and
 * ledger entry's ids, any record's id or card (break_records, the ledger entry, the card
 * transaction); and, when the text reads as an amount, a break of that amount without sign (its
 * amount at stake, a side's amount or a record's), in `currency` when one is given.
 */
export interface QueueSearch {
  text: string;
  amount?: string | undefined;
  currency?: string | undefined;
}

/** The LIKE pattern finding `text` anywhere, its wildcards taken literally. */
const containing = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function searchCondition(q: QueueSearch): SQL {
  const like = containing(q.text);
  const w = sql.raw("finance_break_workflow");
  const ids = sql`(lower(${w}.break_id) LIKE ${like} OR lower(${w}.provider_ref) LIKE ${like}
    OR lower(${w}.entry_id) LIKE ${like}
    OR EXISTS (SELECT 1 FROM break_records r WHERE r.break_id = ${w}.break_id
      AND (lower(r.record_ref) LIKE ${like} OR lower(r.card_id) LIKE ${like}))
    OR EXISTS (SELECT 1 FROM ledger_entries e WHERE e.entry_id = ${w}.entry_id
      AND lower(e.card_id) LIKE ${like})
    OR EXISTS (SELECT 1 FROM card_transactions c WHERE c.txn_order_no = ${w}.provider_ref
      AND lower(c.card_id) LIKE ${like}))`;
  if (q.amount === undefined) return ids;
  const x = sql`abs(${q.amount}::numeric)`;
  const amounts = sql`(abs(${w}.amount) = ${x} OR abs(${w}.provider_amount) = ${x}
    OR abs(${w}.ledger_amount) = ${x}
    OR EXISTS (SELECT 1 FROM break_records r WHERE r.break_id = ${w}.break_id
      AND abs(r.amount) = ${x}))`;
  const currency =
    q.currency === undefined
      ? sql`true`
      : sql`(${w}.currency = ${q.currency} OR EXISTS (SELECT 1 FROM break_records r
          WHERE r.break_id = ${w}.break_id AND r.currency = ${q.currency}))`;
  return sql`(${ids} OR (${amounts} AND ${currency}))`;
}

/** SQL: `column` is one of the currencies `codes`. */
export const inCurrencies = (column: string, codes: readonly string[]): SQL =>
  sql`${sql.raw(column)} IN (${sql.join(
    codes.map((c) => sql`${c}`),
    sql`, `,
  )})`;

/** One page of the queue and how many breaks match the filter in all. */
export interface BreakPage {
  rows: BreakRow[];
  total: number;
  offset: number;
}

// Named as BreakRow names them, in its order.
const COLUMNS = sql`break_id AS "breakId", class, priority, status, record_kind AS "recordKind",
  provider_ref AS "providerRef", entry_id AS "entryId", currency, amount::text AS amount,
  provider_amount::text AS "providerAmount", ledger_amount::text AS "ledgerAmount", detail,
  ${utcText("occurred_at")} AS "occurredAt", ${utcText("opened_at")} AS "openedAt", days_open AS "daysOpen",
  record_age_days AS "recordAgeDays", assignee, accepted_by AS "acceptedBy",
  ${utcText("accepted_at")} AS "acceptedAt", accepted_reason AS "acceptedReason",
  last_action AS "lastAction", last_actor AS "lastActor", ${utcText("last_action_at")} AS "lastActionAt",
  ${utcText("due_at")} AS "dueAt", overdue, coalesce(entity, '') AS entity`;

// The view's numeric column: a bare `amount` in ORDER BY names the text output column above,
// which sorts as text (981.85 before 14861.56).
const AMOUNT = "finance_break_workflow.amount";
// Amounts are compared within a currency only (14,861.56 HKD is not more than 1,983.58 USD):
// by currency, then by amount; reversing it reverses the amounts, the currencies keep their order.
const BY_CURRENCY = "currency NULLS LAST";

const ORDER: Record<QueueSort, string> = {
  priority: `CASE status WHEN 'open' THEN 0 WHEN 'pending' THEN 1 ELSE 2 END, priority, ${AMOUNT} DESC`,
  amount: `${BY_CURRENCY}, ${AMOUNT} DESC`,
  age: "occurred_at ASC NULLS LAST",
  class: `class, priority, ${AMOUNT} DESC`,
  last_action: "last_action_at DESC NULLS LAST",
  due: "due_at ASC NULLS LAST",
};
const REVERSED: Record<QueueSort, string> = {
  priority: `CASE status WHEN 'open' THEN 0 WHEN 'pending' THEN 1 ELSE 2 END DESC, priority DESC, ${AMOUNT}`,
  amount: `${BY_CURRENCY}, ${AMOUNT} ASC`,
  age: "occurred_at DESC NULLS LAST",
  class: `class DESC, priority, ${AMOUNT} DESC`,
  last_action: "last_action_at ASC NULLS LAST",
  due: "due_at DESC NULLS LAST",
};

/**
 * One page of the breaks matching the filter, and their number in all. Every sort ends with
 * break_id (unique), so the order is total: consecutive offsets neither skip nor repeat a row.
 */
export async function listBreakPage(db: Db, filter: BreakFilter = {}): Promise<BreakPage> {
  const { from, matching } = chosenBreaks(filter);
  const sort = filter.sort ?? "priority";
  const order = (filter.descending ? REVERSED : ORDER)[sort];
  const offset = filter.offset ?? 0;
  const limit = filter.limit === null ? sql`ALL` : sql`${filter.limit ?? 200}`;
  // The total comes with the rows (one statement, one snapshot); a page past the end has no
  // row to carry it, so it is counted apart.
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`SELECT ${COLUMNS}, count(*) OVER () AS total_rows FROM ${from}
      WHERE ${matching} ORDER BY ${sql.raw(order)}, break_id LIMIT ${limit} OFFSET ${offset}`,
  );
  let total = rows.length > 0 ? Number(rows[0]?.total_rows) : 0;
  if (rows.length === 0 && offset > 0) {
    const [counted] = await queryRows<{ n: string }>(
      db,
      sql`SELECT count(*) AS n FROM ${from} WHERE ${matching}`,
    );
    total = Number(counted?.n ?? 0);
  }
  return { rows: rows.map(toBreakRow), total, offset };
}

/**
 * The breaks a filter chooses: `from` (finance_break_workflow with due dates, under its own
 * name) and the condition `matching` over it (paging and sorting left out).
 */
export function chosenBreaks(filter: BreakFilter): { from: SQL; matching: SQL } {
  const statuses = filter.status && filter.status.length > 0 ? filter.status : ["open", "pending"];
  const where: SQL[] = [
    sql`status IN (${sql.join(
      statuses.map((s) => sql`${s}`),
      sql`, `,
    )})`,
  ];
  if (filter.class) where.push(sql`class = ${filter.class}`);
  if (filter.currency && filter.currency.length > 0) {
    // The break's own currency (the provider's) or any of its records': a currency_mismatch
    // whose ledger side is in the currency is part of that currency's bridge.
    where.push(
      sql`(${inCurrencies("currency", filter.currency)} OR EXISTS (SELECT 1 FROM break_records r
        WHERE r.break_id = finance_break_workflow.break_id AND ${inCurrencies("r.currency", filter.currency)}))`,
    );
  }
  if (filter.entity !== undefined) where.push(sql`entity = ${filter.entity}`);
  if (filter.entities !== undefined) where.push(entityScope("entity", filter.entities));
  if (filter.assignee !== undefined)
    where.push(
      filter.assignee === ""
        ? sql`assignee IS NULL`
        : // Whoever typed the name (an assign, the filter) chose its case: "carol" finds Carol.
          sql`lower(assignee) = lower(${filter.assignee})`,
    );
  if (filter.overdue) where.push(sql`overdue`);
  if (filter.day !== undefined) where.push(sql`occurred_at::date = ${filter.day}::date`);
  if (filter.search) where.push(searchCondition(filter.search));
  return {
    from: sql`${withDueDates(filter.due)} finance_break_workflow`,
    matching: sql.join(where, sql` AND `),
  };
}

export interface BreakDetail {
  break: BreakRow;
  /**
   * The id of the break's last audit row ("0": none), read with the break's state in one
   * statement: the version of the break this view shows (SeenBreak.lastActionId).
   */
  lastActionId: string;
  /** Its ledger records' currencies, sorted and '/'-joined (null: none); break.currency is the provider's. */
  ledgerCurrency: string | null;
  /** The records the break covers (none once resolved). */
  records: {
    side: string;
    recordKind: string;
    recordRef: string;
    amount: string | null;
    currency: string | null;
  }[];
  /** The provider's stored record (its columns as text, the raw payload left out). */
  providerRecord: { table: string; fields: [string, string | null][] } | undefined;
  /** The ledger entry, its columns as text. */
  ledgerEntry: [string, string | null][] | undefined;
  /** Every action on the break, oldest first. */
  history: AuditRow[];
  /** When and why a match run resolved it (resolved breaks only). */
  resolution: BreakResolution | undefined;
}

/** One break with what finance needs to decide on it; undefined for an unknown id. */
export async function showBreak(
  db: Db,
  breakId: string,
  due?: DueSettings,
): Promise<BreakDetail | undefined> {
  const [row] = await queryRows<Record<string, unknown>>(
    db,
    sql`SELECT ${COLUMNS},
        (SELECT coalesce(max(a.id), 0)::text FROM break_actions a
          WHERE a.break_id = finance_break_workflow.break_id) AS last_action_id,
        ${ledgerCurrencies("finance_break_workflow.break_id")} AS ledger_currencies
      FROM ${withDueDates(due)} finance_break_workflow WHERE break_id = ${breakId}`,
  );
  if (!row) return undefined;
  const b = toBreakRow(row);
  const records = await queryRows<BreakDetail["records"][number]>(
    db,
    sql`SELECT side, record_kind AS "recordKind", record_ref AS "recordRef", amount::text AS amount,
      currency FROM break_records WHERE break_id = ${breakId} ORDER BY side DESC, record_kind, record_ref`,
  );
  return {
    break: b,
    lastActionId: String(row.last_action_id ?? "0"),
    ledgerCurrency: typeof row.ledger_currencies === "string" ? row.ledger_currencies : null,
    records,
    providerRecord: await providerRecord(db, b),
    ledgerEntry: b.entryId
      ? await fields(
          db,
          sql`SELECT to_jsonb(e) AS j FROM ledger_entries e WHERE e.entry_id = ${b.entryId}`,
        )
      : undefined,
    history: await breakHistory(db, breakId),
    resolution: await breakResolution(db, breakId),
  };
}

/** The audit rows of a break, oldest first (by the bigint id: the text alias sorts 10 before 9). */
export async function breakHistory(db: Db, breakId: string): Promise<AuditRow[]> {
  return queryRows<AuditRow & Record<string, unknown>>(
    db,
    sql`SELECT id::text AS id, ${utcText("at")} AS at, actor, action, coalesce(text, '') AS text, class,
      amount::text AS amount, currency
      FROM break_actions WHERE break_id = ${breakId}
      ORDER BY break_actions.id`,
  );
}

// Where a break's provider_ref points, by its record kind (a fee's ref is its parent's).
const PROVIDER_TABLES: Record<string, { table: string; key: string }[]> = {
  card_transaction: [{ table: "card_transactions", key: "txn_order_no" }],
  card_operation: [{ table: "operate_records", key: "client_request_id" }],
  fee: [
    { table: "card_transactions", key: "txn_order_no" },
    { table: "operate_records", key: "client_request_id" },
  ],
  account: [{ table: "account_transactions", key: "service_id" }],
};

async function providerRecord(db: Db, b: BreakRow): Promise<BreakDetail["providerRecord"]> {
  if (!b.providerRef || !b.recordKind) return undefined;
  for (const { table, key } of PROVIDER_TABLES[b.recordKind] ?? []) {
    const found = await fields(
      db,
      sql`SELECT to_jsonb(t) - 'raw' AS j FROM ${sql.raw(table)} t
        WHERE t.${sql.raw(key)} = ${b.providerRef} LIMIT 1`,
    );
    if (found) return { table, fields: found };
  }
  return undefined;
}

/** A row's columns as text pairs, through jsonb_each_text (no JSON.parse: ids keep digits). */
async function fields(db: Db, row: SQL): Promise<[string, string | null][] | undefined> {
  const rows = await queryRows<{ key: string; value: string | null }>(
    db,
    sql`SELECT f.key, f.value FROM (${row}) r CROSS JOIN LATERAL jsonb_each_text(r.j) f`,
  );
  return rows.length === 0 ? undefined : rows.map((r) => [r.key, r.value ?? null]);
}

/** A row of COLUMNS as BreakRow (the statement's other columns left out). */
function toBreakRow({
  total_rows: _total,
  last_action_id: _last,
  ledger_currencies: _currencies,
  ...r
}: Record<string, unknown>): BreakRow {
  return { ...r, detail: detailText(String(r.detail)), overdue: isTrue(r.overdue) } as BreakRow;
}
