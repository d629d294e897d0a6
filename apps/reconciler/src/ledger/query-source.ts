// The merchant's own database as a ledger source (LEDGER_DATABASE_URL + RECONCILER_LEDGER_QUERY):
// the query returns the columns of docs/ledger-format.md; its rows get the same checks as a CSV
// file and go in all or nothing, idempotent by entry_id. Errors name the row's entry_id and the
// rule, and the database by host only (the URL may hold a password).
import postgres from "postgres";
import type { Db } from "../db/database";
import { importLedgerEntries, type LedgerImportResult } from "./import-ledger";
import { LEDGER_COLUMNS, type LedgerColumn } from "./ledger-row";
import { checkLedgerRows, headerProblem, type LedgerRowValues } from "./parse-ledger";

/** The query's rows broke the ledger's rules (nothing was imported), or it could not run. */
export class LedgerQueryError extends Error {
  override readonly name = "LedgerQueryError";
  constructor(
    message: string,
    readonly problems: readonly string[] = [],
  ) {
    super(problems.length > 0 ? `${message}\n  ${problems.slice(0, 20).join("\n  ")}` : message);
  }
}

/** host:port/database of a URL, never its user or password. */
export function describeDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}${u.port ? `:${u.port}` : ""}${u.pathname}`;
  } catch {
    return "(an unreadable URL)";
  }
}

/** A value as the text the CSV would have held: times as ISO 8601, numbers as their digits. */
function asText(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  return JSON.stringify(value);
}

export interface QueryIntake extends LedgerImportResult {
  source: string;
}

/**
 * Runs the query in a read-only transaction on the merchant's database and imports the rows.
 * Postgres returns numeric and bigint columns as text here, so amounts and ids keep every digit.
 */
export async function intakeLedgerQuery(
  db: Db,
  opts: { url: string; query: string; timeoutSeconds?: number },
): Promise<QueryIntake> {
  const source = describeDatabaseUrl(opts.url);
  const client = postgres(opts.url, {
    max: 1,
    onnotice: () => {},
    connect_timeout: opts.timeoutSeconds ?? 30,
    // Dates stay text too: booked_at is read exactly as the database wrote it.
    types: { date: { to: 1184, from: [1082, 1114, 1184], serialize: String, parse: String } },
  });
  let rows: Record<string, unknown>[];
  let columns: string[];
  try {
    const result = await client.begin("read only", (sql) => sql.unsafe(opts.query));
    rows = [...(result as unknown as Record<string, unknown>[])];
    columns = ((result as unknown as { columns?: { name: string }[] }).columns ?? []).map((c) =>
      c.name.toLowerCase(),
    );
  } catch (error) {
    const code = (error as { code?: string }).code;
    const text = error instanceof Error ? error.message : String(error);
    // postgres.js errors name the query problem; a connection error names host and port only.
    throw new LedgerQueryError(
      `the ledger query on ${source} failed: ${code ? `${code} ` : ""}${text.replaceAll(opts.url, source)}`,
    );
  } finally {
    await client.end({ timeout: 5 });
  }
  const problem = headerProblem(columns);
  if (problem) throw new LedgerQueryError(`the ledger query on ${source} returns ${problem}`);
  const values: LedgerRowValues[] = rows.map((row, i) => {
    const v: Partial<Record<LedgerColumn, string>> = {};
    for (const column of LEDGER_COLUMNS) v[column] = asText(row[column]);
    return { line: i + 1, values: v };
  });
  const entryIdOf = (line: number) => asText(rows[line - 1]?.entry_id) ?? "(none)";
  const where = (line: number) => `row ${line} (entry_id ${entryIdOf(line)})`;
  const checked = checkLedgerRows(values, where);
  if (checked.errors.length > 0)
    throw new LedgerQueryError(
      `the ledger query on ${source}: ${checked.errors.length} bad row(s), nothing imported`,
      checked.errors.map((e) => `${where(e.line)}: ${e.reason}`),
    );
  const result = await importLedgerEntries(db, checked.entries, { sourceFile: `query:${source}` });
  return { source, ...result };
}
