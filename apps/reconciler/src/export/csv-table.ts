// An export table as CSV (RFC 4180: CRLF line ends, a field quoted when it holds a comma, a
// quote or a line break, quotes doubled). A text cell a spreadsheet would run as a formula (one
// starting with = + - @, or a tab or carriage return before one) is prefixed with ' so it shows
// as typed; an amount cell is a plain decimal number and is written as it is (-12.50 stays a
// number, not text).
import type { ExportTable } from "./export-table";

const FORMULA = /^[=+\-@\t\r]/;

/** One CSV field: formula-safe (text cells only), quoted when it must be. */
function csvCell(value: string | null, isAmount = false): string {
  if (value === null) return "";
  const safe = !isAmount && FORMULA.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function tableCsv(table: ExportTable): string {
  const lines = [
    table.columns.map((c) => csvCell(c.name)).join(","),
    ...table.rows.map((row) =>
      row.map((cell, i) => csvCell(cell, table.columns[i]?.amount === true)).join(","),
    ),
  ];
  return `${lines.join("\r\n")}\r\n`;
}
