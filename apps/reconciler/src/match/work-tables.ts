// The run's work tables (temporary, dropped at commit) and how passes write into them. Every
// pass names each column it writes: rows are built from objects keyed by column, so a pass
// cannot fill a column by position.
//
//   run_records         every record of the run once: an exact pair, a provider item alone or a
//                       ledger entry alone (passes/exact.ts)
//   provider_leftovers  provider items the exact pass did not pair
//   ledger_leftovers    ledger entries the exact pass did not pair
//   run_members         the members of the run's match groups (chains, gross operations, cash
//                       legs, proposals)
//   run_break_items     one row per item (record) of each break the run raises
//   run_breaks          the run's breaks, one row each (from run_break_items)
import type { Statement } from "./statement";

/** A provider leftover (alias a) that no later pass has taken into a match or a break yet. */
export const openProvider = (a: string) =>
  `NOT EXISTS (SELECT 1 FROM run_members m WHERE m.side = 'provider' AND m.record_kind = ${a}.kind AND m.record_ref = ${a}.item_ref)
   AND NOT EXISTS (SELECT 1 FROM run_break_items b WHERE b.side = 'provider' AND b.item_kind = ${a}.kind AND b.item_ref = ${a}.item_ref)`;

/** A ledger leftover (alias a) that no later pass has taken into a match or a break yet. */
export const openLedger = (a: string) =>
  `NOT EXISTS (SELECT 1 FROM run_members m WHERE m.side = 'ledger' AND m.record_ref = ${a}.entry_id)
   AND NOT EXISTS (SELECT 1 FROM run_break_items b WHERE b.side = 'ledger' AND b.item_ref = ${a}.entry_id)`;

const MEMBER_COLUMNS = [
  "match_id",
  "pass",
  "status",
  "side",
  "record_kind",
  "record_ref",
  "amount",
  "currency",
] as const;

const BREAK_ITEM_COLUMNS = [
  // The break.
  "break_key",
  "class",
  "status",
  "record_kind",
  "provider_ref",
  "entry_id",
  "currency",
  "amount",
  "provider_amount",
  "ledger_amount",
  "detail",
  "occurred_at",
  // One of its items: which side, the record, its amount, and whether it is the main one.
  "side",
  "item_kind",
  "item_ref",
  "item_amount",
  "item_currency",
  "main_item",
] as const;

/** A SQL expression per column; a column left out is NULL. */
export type Row<C extends string> = Partial<Record<C, string>>;
type MemberRow = Row<(typeof MEMBER_COLUMNS)[number]>;
type BreakItemRow = Row<(typeof BREAK_ITEM_COLUMNS)[number]>;

/** One SELECT of a row: each column's expression, named. */
function select<C extends string>(columns: readonly C[], row: Row<C>, from: string): string {
  return `SELECT ${columns.map((c) => `${row[c] ?? "NULL"} AS ${c}`).join(",\n  ")}\n${from}`;
}

function insert<C extends string>(
  table: string,
  columns: readonly C[],
  parts: readonly { row: Row<C>; from: string }[],
  withClause: string,
): string {
  return `INSERT INTO ${table} (${columns.join(", ")})
${withClause ? `WITH ${withClause}\n` : ""}${parts.map((p) => select(columns, p.row, p.from)).join("\nUNION ALL\n")}`;
}

/** INSERT INTO run_members of the rows each part selects (`from`: FROM … WHERE …). */
export function insertMembers(
  parts: readonly { row: MemberRow; from: string }[],
  withClause = "",
): string {
  return insert("run_members", MEMBER_COLUMNS, parts, withClause);
}

/**
 * The members of a confirmed match group made of one ledger entry (alias `ok`: entry_id,
 * amount, currency) and the provider items it books (alias `i`), under `matchId`.
 */
export function entryWithItems(
  matchId: string,
  pass: string,
): { entry: MemberRow; item: MemberRow } {
  const group = { match_id: matchId, pass: `'${pass}'`, status: "'confirmed'" };
  return {
    entry: {
      ...group,
      side: "'ledger'",
      record_kind: "'ledger_entry'",
      record_ref: "ok.entry_id",
      amount: "ok.amount",
      currency: "ok.currency",
    },
    item: {
      ...group,
      side: "'provider'",
      record_kind: "i.kind",
      record_ref: "i.item_ref",
      amount: "i.amount",
      currency: "i.currency",
    },
  };
}

/** The item columns of a break whose one item is the ledger entry `x` (entry_id, amount, currency). */
export const entryAsItem = (x: string): BreakItemRow => ({
  side: "'ledger'",
  item_kind: "'ledger_entry'",
  item_ref: `${x}.entry_id`,
  item_amount: `${x}.amount`,
  item_currency: `${x}.currency`,
  main_item: "true",
});

/** The item columns read from a row `r` of (side, kind, ref, amount, currency, main). */
export const itemOf = (r: string): BreakItemRow => ({
  side: `${r}.side`,
  item_kind: `${r}.kind`,
  item_ref: `${r}.ref`,
  item_amount: `${r}.amount`,
  item_currency: `${r}.currency`,
  main_item: `${r}.main`,
});

/** INSERT INTO run_break_items of the rows the part selects. */
export function insertBreakItems(row: BreakItemRow, from: string, withClause = ""): string {
  return insert("run_break_items", BREAK_ITEM_COLUMNS, [{ row, from }], withClause);
}

/** The tables later passes write into (run_records and the leftovers come from the exact pass). */
export const workTables: Statement[] = [
  {
    name: "match members table",
    text: `CREATE TEMP TABLE run_members (match_id text, pass text, status text, side text,
        record_kind text, record_ref text, amount numeric, currency text) ON COMMIT DROP`,
  },
  {
    name: "break items table",
    text: `CREATE TEMP TABLE run_break_items (break_key text, class text, status text,
        record_kind text, provider_ref text, entry_id text, currency text, amount numeric,
        provider_amount numeric, ledger_amount numeric, detail text, occurred_at timestamptz,
        side text, item_kind text, item_ref text, item_amount numeric, item_currency text,
        main_item boolean) ON COMMIT DROP`,
  },
];
