// The one plain-text table printer of the CLI and the text report: columns padded to their
// widest cell, numbers right-aligned, a dashed rule under the header.

/** The table's lines; the columns in `right` are right-aligned (amounts, counts). */
export function tableLines(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  right: ReadonlySet<number> = new Set(),
): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (right.has(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)];
}

/** The table as one text (lines joined). */
export function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  right: ReadonlySet<number> = new Set(),
): string {
  return tableLines(header, rows, right).join("\n");
}
