// Ledger CSV text → records with the line each starts on (csv-parse does the RFC 4180 reading:
// quoted fields with commas, doubled quotes and line breaks; CRLF, LF or CR line ends; a BOM),
// so import errors can name the line. csvField writes a field back for the ledger writers.
import { CsvError, parse } from "csv-parse/sync";

interface CsvRecord {
  /** 1-based line of the file where the record starts (the header is line 1). */
  line: number;
  fields: string[];
}

/** Thrown for text that is not CSV at all (an unterminated quote, text after a closing quote). */
export class CsvSyntaxError extends Error {
  override readonly name = "CsvSyntaxError";
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

// csv-parse's codes, worded for the person who fixes the file.
const REASONS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: "a quoted field is never closed",
  CSV_INVALID_CLOSING_QUOTE: "text after a closing quote (quote the whole field)",
  INVALID_OPENING_QUOTE: "a quote inside an unquoted field (quote the field)",
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: "text after a closing quote (quote the whole field)",
};

/** How many times `pattern` (global) matches inside the fields. */
function countIn(fields: readonly string[], pattern: RegExp): number {
  let n = 0;
  for (const f of fields) n += f.match(pattern)?.length ?? 0;
  return n;
}

/** Every record of the text, blank lines skipped; a leading byte-order mark is ignored. */
export function readCsv(text: string): CsvRecord[] {
  let parsed: string[][];
  let lastEnd = 0;
  // csv-parse's line count runs ahead by one for every CRLF inside a quoted field so far.
  let overcount = 0;
  const starts: number[] = [];
  try {
    // The line a record ends on comes with on_record's context; `info: true` would say the
    // same at a quarter more of the whole parse's cost.
    parsed = parse(text, {
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      // Any line end, mixed within one file (csv-parse otherwise fixes the first one it sees).
      record_delimiter: ["\r\n", "\n", "\r"],
      on_record: (fields: string[], context: { lines: number }) => {
        // csv-parse counts a CRLF inside a field as two lines (one per character).
        overcount += countIn(fields, /\r\n/g);
        // context.lines is the line a record ends on; its quoted line breaks (each CRLF, LF or
        // CR once, as a line of the file) move its start back.
        lastEnd = context.lines - overcount;
        starts.push(lastEnd - countIn(fields, /\r\n|\r|\n/g));
        return fields;
      },
    }) as string[][];
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    // An unclosed quote runs to the end of the text: it opened on the record after the last
    // complete one. Other errors are on the line csv-parse stopped at.
    const line =
      error.code === "CSV_QUOTE_NOT_CLOSED"
        ? lastEnd + 1
        : Number((error as CsvError & { lines?: number }).lines ?? 1) - overcount;
    throw new CsvSyntaxError(line, REASONS[error.code] ?? error.message);
  }
  return parsed.map((fields, i) => ({ line: starts[i] as number, fields }));
}

/** A field as CSV: quoted when it holds a comma, quote, or line break. */
export function csvField(value: string | undefined | null): string {
  if (value === undefined || value === null) return "";
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}
