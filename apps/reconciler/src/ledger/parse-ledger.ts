// A ledger CSV file read whole: every entry, or every bad row with its line and reason.
import { CsvSyntaxError, readCsv } from "./csv";
import {
  checkLedgerRow,
  LEDGER_COLUMNS,
  type LedgerColumn,
  type LedgerEntry,
  REQUIRED_COLUMNS,
} from "./ledger-row";

export interface LedgerRowError {
  /** 1-based line of the file (the header is line 1). */
  line: number;
  reason: string;
}

export interface ParsedLedger {
  entries: { line: number; entry: LedgerEntry }[];
  errors: LedgerRowError[];
}

/**
 * Reads the header (column names in any order, the required ones present, no unknown ones),
 * then checks every row; an entry_id seen twice in one file is an error on its second line.
 */
export function parseLedger(text: string): ParsedLedger {
  const entries: ParsedLedger["entries"] = [];
  const errors: LedgerRowError[] = [];
  let columns: (LedgerColumn | undefined)[] | undefined;
  const seen = new Map<string, number>();
  try {
    for (const record of readCsv(text)) {
      if (!columns) {
        const names = record.fields.map((f) => f.trim().toLowerCase());
        const unknown = names.filter((n) => !(LEDGER_COLUMNS as readonly string[]).includes(n));
        const missing = REQUIRED_COLUMNS.filter((c) => !names.includes(c));
        const repeated = names.filter((n, i) => names.indexOf(n) !== i);
        if (unknown.length || missing.length || repeated.length) {
          const parts = [
            missing.length ? `missing column(s) ${missing.join(", ")}` : "",
            unknown.length ? `unknown column(s) ${unknown.join(", ")}` : "",
            repeated.length ? `repeated column(s) ${repeated.join(", ")}` : "",
          ].filter(Boolean);
          errors.push({
            line: record.line,
            reason: `header: ${parts.join("; ")} (columns: ${LEDGER_COLUMNS.join(", ")})`,
          });
          return { entries: [], errors };
        }
        columns = names as LedgerColumn[];
        continue;
      }
      if (record.fields.length !== columns.length) {
        errors.push({
          line: record.line,
          reason: `${record.fields.length} fields where the header has ${columns.length}`,
        });
        continue;
      }
      const values: Partial<Record<LedgerColumn, string>> = {};
      columns.forEach((column, i) => {
        if (column) values[column] = record.fields[i];
      });
      const checked = checkLedgerRow(values);
      if ("reason" in checked) {
        errors.push({ line: record.line, reason: checked.reason });
        continue;
      }
      const first = seen.get(checked.entry.entryId);
      if (first !== undefined) {
        errors.push({
          line: record.line,
          reason: `entry_id "${checked.entry.entryId}" already appears on line ${first}`,
        });
        continue;
      }
      seen.set(checked.entry.entryId, record.line);
      entries.push({ line: record.line, entry: checked.entry });
    }
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    errors.push({ line: error.line, reason: error.reason });
  }
  if (!columns && errors.length === 0)
    errors.push({ line: 1, reason: "the file is empty (no header)" });
  return { entries, errors };
}
