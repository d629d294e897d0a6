// A small RFC 4180 CSV reader that keeps the line number each record starts on (quoted fields
// may hold commas, doubled quotes and line breaks), so import errors can name the line.

export interface CsvRecord {
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

/** Every record of the text, blank lines skipped; a leading byte-order mark is ignored. */
export function* readCsv(text: string): Generator<CsvRecord> {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  const n = text.length;
  while (i < n) {
    const start = line;
    const fields: string[] = [];
    let field = "";
    let atRecordEnd = false;
    while (!atRecordEnd) {
      if (text[i] === '"') {
        i++;
        for (;;) {
          if (i >= n) throw new CsvSyntaxError(start, "a quoted field is never closed");
          const ch = text[i] as string;
          if (ch === '"') {
            if (text[i + 1] === '"') {
              field += '"';
              i += 2;
              continue;
            }
            i++;
            break;
          }
          if (ch === "\n") line++;
          field += ch;
          i++;
        }
        const next = text[i];
        if (i < n && next !== "," && next !== "\n" && next !== "\r")
          throw new CsvSyntaxError(line, "text after a closing quote (quote the whole field)");
      } else {
        let j = i;
        while (j < n && text[j] !== "," && text[j] !== "\n" && text[j] !== "\r") j++;
        field = text.slice(i, j);
        if (field.includes('"'))
          throw new CsvSyntaxError(line, "a quote inside an unquoted field (quote the field)");
        i = j;
      }
      fields.push(field);
      field = "";
      if (i >= n) atRecordEnd = true;
      else if (text[i] === ",") i++;
      else {
        if (text[i] === "\r") i++;
        if (text[i] === "\n") i++;
        line++;
        atRecordEnd = true;
      }
    }
    if (fields.length === 1 && fields[0] === "") continue;
    yield { line: start, fields };
  }
}

/** A field as CSV: quoted when it holds a comma, quote, or line break. */
export function csvField(value: string | undefined | null): string {
  if (value === undefined || value === null) return "";
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}
