// An export table as an XLSX workbook (write-excel-file): one sheet, a bold header row, text
// cells as text ("@": a spreadsheet does not turn 2026-05-31 or 00123 into something else) and
// amounts as numbers shown with their own decimals (1,250.50). An amount whose digits a number
// cannot hold exactly (more than 15 significant digits) is written as its text, never rounded.
import writeXlsxFile, { type Cell, type SheetData } from "write-excel-file/node";
import type { ExportTable } from "./export-table";

/** The number `text` is when a double holds it exactly (its decimal digits come back), else undefined. */
function exactNumber(text: string): number | undefined {
  const value = Number(text);
  if (!Number.isFinite(value)) return undefined;
  const [whole = "", decimals = ""] = text.replace(/^-/, "").split(".");
  const digits = `${whole.replace(/^0+/, "")}${decimals}`.length;
  return digits <= 15 ? value : undefined;
}

function amountCell(text: string): Cell {
  const value = exactNumber(text);
  if (value === undefined) return { value: text, type: String, format: "@" };
  const decimals = text.split(".")[1]?.length ?? 0;
  return {
    value,
    type: Number,
    format: decimals === 0 ? "#,##0" : `#,##0.${"0".repeat(decimals)}`,
  };
}

export async function tableXlsx(table: ExportTable, sheet: string): Promise<Buffer> {
  const data: SheetData = [
    table.columns.map((c) => ({ value: c.name, type: String, fontWeight: "bold" }) as Cell),
    ...table.rows.map((row) =>
      row.map((cell, i): Cell => {
        if (cell === null) return null;
        if (table.columns[i]?.amount) return amountCell(cell);
        return { value: cell, type: String, format: "@" };
      }),
    ),
  ];
  return writeXlsxFile(data, { sheet }).toBuffer();
}
