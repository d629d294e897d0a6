// The one plain-text table printer of the CLI and the text report: columns padded to their
// widest cell, numbers right-aligned, a dashed rule under the header. Cells go through
// terminalText, so text from the database cannot drive the terminal.

/** C0 and C1 controls, DEL, and the Unicode bidi overrides and isolates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters it finds
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * Text for a terminal: control characters (ESC, line breaks, ...) and bidi overrides shown as
 * visible escapes (`\x1b`, `\n`, `\u202e`), so a comment or a name someone typed can neither
 * drive the terminal nor print a line of its own. For the human output only: JSON escapes
 * control characters itself and stays exact.
 */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const code = c.charCodeAt(0);
    return (
      NAMED[c] ??
      (code <= 0xff
        ? `\\x${code.toString(16).padStart(2, "0")}`
        : `\\u${code.toString(16).padStart(4, "0")}`)
    );
  });
}

/** The table's lines; the columns in `right` are right-aligned (amounts, counts). */
export function tableLines(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  right: ReadonlySet<number> = new Set(),
): string[] {
  const safe = (cells: readonly string[]) => cells.map((c) => terminalText(c ?? ""));
  const head = safe(header);
  const body = rows.map(safe);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (right.has(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(head), line(widths.map((w) => "-".repeat(w))), ...body.map(line)];
}

/** The table as one text (lines joined). */
export function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  right: ReadonlySet<number> = new Set(),
): string {
  return tableLines(header, rows, right).join("\n");
}
