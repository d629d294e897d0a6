// Ledger rows read whole — a CSV file, or the rows of the merchant's ledger query — into every
// entry, or every bad row with its line (or row) and reason. A reason quotes the bad value, and
// goes to the summary line, ledger_files.reason and the rejected file's reason.txt: card-number-
// like digit runs in it are masked as "[REDACTED]", as every stored or logged error text is.
import { errorText } from "../store/error-text";
import { CsvSyntaxError, readCsv } from "./csv";
import {
  CONTROL,
  checkLedgerRow,
  LEDGER_COLUMNS,
  type LedgerColumn,
  type LedgerEntities,
  type LedgerEntry,
  REQUIRED_COLUMNS,
} from "./ledger-row";

/** A bad row's error, its reason with card-number-like digit runs masked (errorText). */
function rowError(line: number, reason: string): LedgerRowError {
  return { line, reason: errorText(reason) };
}

export interface LedgerRowError {
  /** 1-based line of the file (the header is line 1), or row of a query result. */
  line: number;
  reason: string;
}

export interface ParsedLedger {
  entries: { line: number; entry: LedgerEntry }[];
  errors: LedgerRowError[];
}

/** One row before its checks: where it came from and its values by column name. */
export interface LedgerRowValues {
  line: number;
  values: Partial<Record<LedgerColumn, string>>;
}

/**
 * Checks every row (checkLedgerRow); an entry_id seen twice is an error on its second row. The
 * same rules for every source, so a row refused in a file is refused from a query too.
 */
export function checkLedgerRows(
  rows: Iterable<LedgerRowValues>,
  where: (line: number) => string = (line) => `line ${line}`,
  entities?: LedgerEntities,
): ParsedLedger {
  const entries: ParsedLedger["entries"] = [];
  const errors: LedgerRowError[] = [];
  const seen = new Map<string, number>();
  for (const { line, values } of rows) {
    const checked = checkLedgerRow(values, entities);
    // A bad row's entry_id counts too (when it is one: not too long, no control character), so
    // a later row repeating it is named now, not in a second refusal once the first is fixed.
    const id = values.entry_id?.trim();
    const readable = id && id.length <= 200 && !CONTROL.test(id) ? id : undefined;
    const first = readable === undefined ? undefined : seen.get(readable);
    if (readable !== undefined && first === undefined) seen.set(readable, line);
    const repeated =
      first === undefined ? undefined : `entry_id "${readable}" already appears on ${where(first)}`;
    if ("reason" in checked) {
      errors.push(rowError(line, repeated ? `${checked.reason}; ${repeated}` : checked.reason));
      continue;
    }
    if (repeated) {
      errors.push(rowError(line, repeated));
      continue;
    }
    entries.push({ line, entry: checked.entry });
  }
  return { entries, errors };
}

/** Why a header cannot be read as ledger columns, or undefined. */
export function headerProblem(names: readonly string[]): string | undefined {
  const unknown = names.filter((n) => !(LEDGER_COLUMNS as readonly string[]).includes(n));
  const missing = REQUIRED_COLUMNS.filter((c) => !names.includes(c));
  const repeated = names.filter((n, i) => names.indexOf(n) !== i);
  if (!unknown.length && !missing.length && !repeated.length) return undefined;
  const parts = [
    missing.length ? `missing column(s) ${missing.join(", ")}` : "",
    unknown.length ? `unknown column(s) ${unknown.join(", ")}` : "",
    repeated.length ? `repeated column(s) ${repeated.join(", ")}` : "",
  ].filter(Boolean);
  return `${parts.join("; ")} (columns: ${LEDGER_COLUMNS.join(", ")})`;
}

/**
 * Reads the header (column names in any order, the required ones present, no unknown ones),
 * then checks every row with checkLedgerRows.
 */
export function parseLedger(text: string, entities?: LedgerEntities): ParsedLedger {
  let records: ReturnType<typeof readCsv>;
  try {
    records = readCsv(text);
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    return { entries: [], errors: [rowError(error.line, error.reason)] };
  }
  const [header, ...body] = records;
  if (!header)
    return { entries: [], errors: [{ line: 1, reason: "the file is empty (no header)" }] };
  const columns = header.fields.map((f) => f.trim().toLowerCase());
  const problem = headerProblem(columns);
  if (problem) return { entries: [], errors: [rowError(header.line, `header: ${problem}`)] };
  const shapeErrors: LedgerRowError[] = [];
  const rows: LedgerRowValues[] = [];
  for (const record of body) {
    if (record.fields.length !== columns.length) {
      shapeErrors.push(
        rowError(
          record.line,
          `${record.fields.length} fields where the header has ${columns.length}`,
        ),
      );
      continue;
    }
    const values: Partial<Record<LedgerColumn, string>> = {};
    columns.forEach((column, i) => {
      values[column as LedgerColumn] = record.fields[i];
    });
    rows.push({ line: record.line, values });
  }
  const checked = checkLedgerRows(rows, undefined, entities);
  const errors = [...shapeErrors, ...checked.errors].sort((a, b) => a.line - b.line);
  return { entries: checked.entries, errors };
}
