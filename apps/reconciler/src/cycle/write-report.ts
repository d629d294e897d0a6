// The report a cycle leaves for people: report.html (the same page `reconciler report --html`
// writes) and statement.csv (the daily statement per currency), replaced atomically so a
// reader never opens half a file.
import { randomUUID } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { DueSettings } from "../config/due-settings";
import type { Db } from "../db/database";
import { csvField } from "../ledger/csv";
import { renderHtml } from "../report/render-html";
import { loadReport, type ReportData } from "../report/report-data";
import { statementAmounts } from "../report/report-tables";

const STATEMENT_HEADER =
  "day,currency,provider_total,ledger_total,difference,timing,explained_by_breaks,accepted,pending,unexplained,by_class";

/** The daily statement as CSV: one row per day and currency, amounts as exact decimals. */
export function statementCsv(data: ReportData): string {
  const rows = data.statement.map((r) =>
    [
      r.day,
      r.currency,
      ...statementAmounts(r),
      // The open breaks' part of explained_by_breaks per class: "class=amount" joined by ';'.
      Object.entries(r.byClass)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([cls, amount]) => `${cls}=${amount}`)
        .join(";"),
    ]
      .map(csvField)
      .join(","),
  );
  return `${[STATEMENT_HEADER, ...rows].join("\n")}\n`;
}

async function replaceFile(path: string, text: string): Promise<void> {
  // A random name, not the pid: workers in containers sharing a report folder are all PID 1,
  // and one would rename the other's temporary file away or publish it half-written.
  const temporary = `${path}.${randomUUID()}.tmp`;
  try {
    await writeFile(temporary, text, "utf8");
    await rename(temporary, path);
  } catch (error) {
    // A full disk or a failed rename leaves no temporary file behind in the report folder.
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Writes report.html and statement.csv into `dir` (created if missing); answers their paths. */
export async function writeReport(db: Db, dir: string, due?: DueSettings): Promise<string[]> {
  const data = await loadReport(db, { queueLimit: 500, due });
  await mkdir(dir, { recursive: true });
  const html = join(dir, "report.html");
  const csv = join(dir, "statement.csv");
  await replaceFile(html, renderHtml(data));
  await replaceFile(csv, statementCsv(data));
  return [html, csv];
}
