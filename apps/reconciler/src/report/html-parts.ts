// HTML building blocks of the report and the console: escaping every text that goes into the
// page, and tables whose amount columns are right-aligned.

/** Escapes text for HTML content and attribute values (both quote kinds). */
export function esc(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );
}

/** A cell already rendered as HTML (a link, a badge): htmlTable does not escape it again. */
export interface RawCell {
  html: string;
}

export type Cell = string | RawCell;

const cellHtml = (c: Cell) => (typeof c === "string" ? esc(c) : c.html);

// A day or a time as the pages print them (2026-05-01, 2026-05-01T10:00:00Z).
const DATE = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}(:\d{2})?)?)?$/;

/**
 * A table; columns in `numeric` are right-aligned with tabular figures, and a cell holding a
 * date or time never wraps (a browser breaks 2026-05-01 at its hyphens in a narrow column).
 */
export function htmlTable(
  header: readonly Cell[],
  rows: readonly (readonly Cell[])[],
  numeric: ReadonlySet<number> = new Set(),
  attrs = "",
): string {
  const cls = (i: number) => (numeric.has(i) ? ' class="n"' : "");
  const cellClass = (i: number, c: Cell) =>
    numeric.has(i) ? ' class="n"' : typeof c === "string" && DATE.test(c) ? ' class="d"' : "";
  const head = header.map((h, i) => `<th${cls(i)}>${cellHtml(h)}</th>`).join("");
  const body = rows
    .map((r) => `<tr>${r.map((c, i) => `<td${cellClass(i, c)}>${cellHtml(c)}</td>`).join("")}</tr>`)
    .join("\n");
  return `<table${attrs}><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

/** The report's styles (the console adds its own on top). */
export const REPORT_CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#1d2430;background:#fff}
h1{font-size:22px;margin:0 0 8px}h2{font-size:17px;margin-top:28px;border-bottom:1px solid #d8dde6;padding-bottom:4px}
h3{font-size:14px;margin:16px 0 4px}
table{border-collapse:collapse;margin:8px 0}td,th{border-bottom:1px solid #e3e7ee;padding:4px 10px;vertical-align:top}
th{background:#f3f5f9;text-align:left;font-weight:600}tbody tr:hover{background:#f8fafc}
.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.d{white-space:nowrap}.neg{color:#b42318}.muted{color:#6b7280}
.verdict{display:inline-block;padding:4px 10px;border-radius:4px;color:#fff;font-weight:600}
.reconciled{background:#1a7f37}.reconciled_with_pending{background:#0e7490}.breaks{background:#b42318}.incomplete{background:#6b7280}
.key{margin-right:12px;font-size:12px;white-space:nowrap}.key i{display:inline-block;width:10px;height:10px;margin-right:4px;vertical-align:-1px}
details{margin:6px 0}summary{cursor:pointer;font-weight:600}
.charts{display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start}
.day td{border-top:2px solid #d8dde6}
`;
