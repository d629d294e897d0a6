// A stored row as a person reads it (the console's break page, `breaks show`): each column
// under a label a person reads, each amount with its currency (the currency column folded into
// it), and the bookkeeping columns of the sync left out.
import { moneyText } from "../money-text";

type Field = [string, string | null];

// Columns that say how the row was stored, not what happened.
const HIDDEN = new Set(["raw", "raw_hash", "source"]);

// Words of column names spelled out in labels.
const WORDS: Record<string, string> = {
  txn: "transaction",
  acnt: "account",
  no: "number",
  id: "ID",
  mcc: "MCC",
};

/** "txn_order_no" → "Transaction order number". */
export function columnLabel(column: string): string {
  const text = column
    .split("_")
    .map((word) => WORDS[word] ?? word)
    .join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The column holding the currency of `column`'s amount, when the row has one. */
function currencyColumn(column: string, columns: ReadonlySet<string>): string | undefined {
  const candidates = [
    column === "amount" ? "currency" : undefined,
    column.replace(/_amount$/, "_currency"),
    `${column}_currency`,
  ];
  return candidates.find((c) => c !== undefined && c !== column && columns.has(c));
}

/** The row's fields labelled, amounts with their currency, storage columns left out. */
export function labelledFields(fields: readonly Field[]): Field[] {
  const columns = new Set(fields.map(([column]) => column));
  const values = new Map(fields);
  const folded = new Set<string>();
  const shown: Field[] = [];
  for (const [column] of fields) {
    const currency = currencyColumn(column, columns);
    if (currency !== undefined) folded.add(currency);
  }
  for (const [column, value] of fields) {
    if (HIDDEN.has(column) || folded.has(column)) continue;
    const currency = currencyColumn(column, columns);
    const shownValue =
      currency !== undefined && value !== null ? moneyText(value, values.get(currency)) : value;
    shown.push([columnLabel(column), shownValue]);
  }
  return shown;
}

// What a provider record is, by the table it is stored in.
const RECORD_TABLES: Record<string, string> = {
  card_transactions: "card transaction",
  operate_records: "card operation",
  account_transactions: "account transaction",
};

/** "card transaction" for card_transactions: the kind of record a table stores. */
export const recordKindOf = (table: string): string => RECORD_TABLES[table] ?? table;
