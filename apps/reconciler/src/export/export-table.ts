// What `reconciler export` writes: the journal (journal_entries), the breaks or the audit trail
// (break_actions), as one table of text cells whose columns say which are amounts, for the CSV and
// XLSX writers. The breaks list's filters choose the breaks; the journal and the audit trail are
// those of the breaks they choose (every break, whatever its status, when no filter is given),
// the journal's rows of a currency filter those in its currencies.
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";
import { utcText } from "../db/utc-text";
import {
  type BreakFilter,
  type BreakRow,
  inCurrencies,
  listBreakPage,
  WORKFLOW_STATUSES,
} from "../workflow/break-queries";
import { JOURNAL_COLUMNS, type JournalEntry } from "../workflow/write-off";

export const EXPORTS = ["journal", "breaks", "audit"] as const;
export type ExportKind = (typeof EXPORTS)[number];

interface ExportColumn {
  name: string;
  /** An amount (decimal text, written as a number); any other cell is text. */
  amount?: boolean;
}

export interface ExportTable {
  columns: ExportColumn[];
  /** Cells as text (amounts as exact decimal text); null: empty. */
  rows: (string | null)[][];
}

/** The breaks filter minus paging: what the breaks list's flags choose. */
type ExportFilter = Omit<BreakFilter, "limit" | "offset">;

const text = (name: string): ExportColumn => ({ name });
const amount = (name: string): ExportColumn => ({ name, amount: true });

/** The table `kind` holds for `filter` (the breaks: open and pending when no status is given). */
export async function loadExport(
  db: Db,
  kind: ExportKind,
  filter: ExportFilter,
): Promise<ExportTable> {
  if (kind === "breaks") {
    const breaks = await filteredBreaks(db, filter);
    return breaksTable(breaks, await effectsOf(db, breaks));
  }
  // A journal row is in its own currency (a currency_mismatch's write-off books one in each of
  // its currencies): the currency filter picks the rows, the other filters the breaks.
  const { currency, ...others } = filter;
  const byRow = kind === "journal" && currency !== undefined && currency.length > 0;
  const chooser = byRow ? others : filter;
  const given = Object.values(chooser).some((x) => x !== undefined);
  // Without a filter every row; with one the rows of the breaks it chooses, in any status.
  const ids = given
    ? (await filteredBreaks(db, { ...chooser, status: chooser.status ?? WORKFLOW_STATUSES })).map(
        (b) => b.breakId,
      )
    : undefined;
  const where = sql.join(
    [
      ids === undefined
        ? sql`true`
        : sql`break_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`,
      byRow ? inCurrencies("currency", currency) : sql`true`,
    ],
    sql` AND `,
  );
  return kind === "journal" ? journalTable(db, where) : auditTable(db, where);
}

async function filteredBreaks(db: Db, filter: ExportFilter): Promise<BreakRow[]> {
  return (await listBreakPage(db, { ...filter, limit: null, offset: 0 })).rows;
}

/**
 * Each break's signed effect (provider − ledger) per currency it touches, as the bridge counts it
 * (finance_break_effects): `EUR=146.77;SGD=-146.77`. A break's amounts are in one currency, so
 * without it a currency_mismatch's ledger side would be summed under the provider's currency.
 */
async function effectsOf(db: Db, breaks: BreakRow[]): Promise<Map<string, string>> {
  if (breaks.length === 0) return new Map();
  const ids = JSON.stringify(breaks.map((b) => b.breakId));
  const rows = await queryRows<{ break_id: string; effects: string }>(
    db,
    sql`SELECT break_id, string_agg(currency || '=' || effect::text, ';' ORDER BY currency) AS effects
      FROM finance_break_effects
      WHERE break_id IN (SELECT jsonb_array_elements_text(${ids}::jsonb))
      GROUP BY break_id`,
  );
  return new Map(rows.map((r) => [r.break_id, r.effects]));
}

function breaksTable(rows: BreakRow[], effects: Map<string, string>): ExportTable {
  const columns: [ExportColumn, (b: BreakRow) => string | null][] = [
    [text("break_id"), (b) => b.breakId],
    [text("class"), (b) => b.class],
    [text("status"), (b) => b.status],
    [text("priority"), (b) => `P${b.priority}`],
    [text("currency"), (b) => b.currency],
    [amount("amount"), (b) => b.amount],
    [amount("provider_amount"), (b) => b.providerAmount],
    [amount("ledger_amount"), (b) => b.ledgerAmount],
    [text("record_kind"), (b) => b.recordKind],
    [text("provider_ref"), (b) => b.providerRef],
    [text("entry_id"), (b) => b.entryId],
    [text("occurred_at"), (b) => b.occurredAt],
    [text("opened_at"), (b) => b.openedAt],
    [text("assignee"), (b) => b.assignee],
    [text("accepted_by"), (b) => b.acceptedBy],
    [text("accepted_at"), (b) => b.acceptedAt],
    [text("accepted_reason"), (b) => b.acceptedReason],
    [text("last_action"), (b) => b.lastAction],
    [text("last_actor"), (b) => b.lastActor],
    [text("last_action_at"), (b) => b.lastActionAt],
    // As breaks list --overdue and finance_open_breaks read them (workflow/due-dates.ts).
    [text("due_at"), (b) => b.dueAt],
    [text("overdue"), (b) => (b.dueAt === null ? null : String(b.overdue))],
    [text("detail"), (b) => b.detail],
    // Appended, so the columns before keep their places for existing spreadsheets.
    [text("entity"), (b) => b.entity],
    [text("effects"), (b) => effects.get(b.breakId) ?? null],
  ];
  return {
    columns: columns.map(([c]) => c),
    rows: rows.map((b) => columns.map(([, cell]) => cell(b))),
  };
}

async function journalTable(db: Db, where: ReturnType<typeof sql>): Promise<ExportTable> {
  const rows = await queryRows<JournalEntry & Record<string, unknown>>(
    db,
    // By the table's id: the output column "id" is text, and "10" would sort before "2".
    sql`SELECT ${JOURNAL_COLUMNS} FROM journal_entries WHERE ${where} ORDER BY journal_entries.id`,
  );
  return {
    columns: JOURNAL_EXPORT.map(([name]) => (name === "amount" ? amount(name) : text(name))),
    rows: rows.map((e) => JOURNAL_EXPORT.map(([, field]) => e[field])),
  };
}

/** The journal's export columns, each with the JournalEntry field it holds. */
const JOURNAL_EXPORT: [string, keyof JournalEntry][] = [
  ["id", "id"],
  ["entry_date", "entryDate"],
  ["account", "account"],
  ["amount", "amount"],
  ["currency", "currency"],
  ["break_id", "breakId"],
  ["reference", "reference"],
  ["actor", "actor"],
  ["reason", "reason"],
  ["audit_row", "actionId"],
  ["created_at", "createdAt"],
];

async function auditTable(db: Db, where: ReturnType<typeof sql>): Promise<ExportTable> {
  const rows = await queryRows<Record<string, string | null>>(
    db,
    sql`SELECT id::text AS id, break_id, ${utcText("at")} AS at, actor, action, text, class,
        amount::text AS amount, currency
      FROM break_actions WHERE ${where} ORDER BY break_actions.id`,
  );
  const names = ["id", "break_id", "at", "actor", "action", "text", "class", "amount", "currency"];
  return {
    columns: names.map((n) => (n === "amount" ? amount(n) : text(n))),
    rows: rows.map((r) => names.map((n) => r[n] ?? null)),
  };
}
