// The merchant's own database as a ledger source (LEDGER_DATABASE_URL + RECONCILER_LEDGER_QUERY):
// the query returns the columns of docs/ledger-format.md; its rows get the same checks as a CSV
// file and go in all or nothing, idempotent by entry_id. Errors name the row's entry_id and the
// rule, and the database by host only (the URL may hold a password). The query gives up after
// RECONCILER_LEDGER_QUERY_TIMEOUT, so a lock on the merchant's database cannot hang the cycle.
import { sql } from "drizzle-orm";
import postgres from "postgres";
import type { Db } from "../db/database";
import { isTrue, queryRows } from "../db/query-rows";
import { describeDatabaseUrl, reachedWithin } from "../db/reach-database";
import { dataRefusal } from "../db/sql-state";
import { importLedgerEntries, type LedgerImportResult } from "./import-ledger";
import { LEDGER_COLUMNS, type LedgerColumn, type LedgerEntities } from "./ledger-row";
import { checkLedgerRows, headerProblem, type LedgerRowValues } from "./parse-ledger";

/** How long the ledger query may run, or wait for a lock, unless configured otherwise. */
const DEFAULT_LEDGER_QUERY_TIMEOUT_MS = 5 * 60_000;

/**
 * The ledger query's input was refused (`refused`: its columns or rows broke the ledger's rules,
 * or the reconciler's database refused a value; nothing was imported, someone must fix the rows)
 * or it could not run (`failed`: the database unreachable, the SQL wrong, the timeout reached).
 */
export class LedgerQueryError extends Error {
  override readonly name = "LedgerQueryError";
  constructor(
    readonly kind: "refused" | "failed",
    message: string,
    readonly problems: readonly string[] = [],
  ) {
    super(problems.length > 0 ? `${message}\n  ${problems.slice(0, 20).join("\n  ")}` : message);
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

/** Postgres's refusal of a query string of several statements sent with the extended protocol. */
const isSeveralStatements = (error: unknown) =>
  (error as { code?: string }).code === "42601" &&
  /multiple commands/.test(error instanceof Error ? error.message : "");

interface QueryIntake extends LedgerImportResult {
  source: string;
}

/**
 * Runs the query in a read-only transaction on the merchant's database and imports the rows.
 * Postgres returns numeric and bigint columns as text here, so amounts and ids keep every digit.
 */
export async function intakeLedgerQuery(
  db: Db,
  opts: {
    url: string;
    query: string;
    timeoutSeconds?: number;
    queryTimeoutMs?: number;
    /** The query returns every entry of this source: one it imported and no longer returns is deleted. */
    complete?: boolean;
    /** The entities a row may name (RECONCILER_ENTITIES); unset: the merchant alone. */
    entities?: LedgerEntities;
  },
): Promise<QueryIntake> {
  const source = describeDatabaseUrl(opts.url);
  const timeoutMs = Math.round(opts.queryTimeoutMs ?? DEFAULT_LEDGER_QUERY_TIMEOUT_MS);
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
    await reachedWithin(client`SELECT 1`, (opts.timeoutSeconds ?? 30) * 1000, opts.url);
    const result = await client.begin("read only", async (sql) => {
      // Bounds for this transaction only: a statement that runs too long, or waits on a lock
      // (a migration, a VACUUM FULL on the merchant's side), is cancelled instead of holding
      // the cycle, and every later tick, for ever.
      await sql.unsafe(`SET LOCAL statement_timeout = ${timeoutMs}`);
      await sql.unsafe(`SET LOCAL lock_timeout = ${timeoutMs}`);
      // booked_at is read as the database writes it: in ISO 8601 whatever DateStyle the
      // merchant's database or role has ('SQL, DMY' writes 16/11/2026, which the checks refuse).
      // Only the output format: the query's own date literals keep their day/month order.
      await sql.unsafe("SET LOCAL DateStyle = 'ISO'");
      // The extended protocol, which takes one statement: sent as a simple query (postgres.js's
      // choice for a query without parameters) "COMMIT; DELETE …; SELECT …" would run all three,
      // the DELETE outside the read-only transaction and past the timeout.
      return sql.unsafe(opts.query, [], { simple: false } as postgres.UnsafeQueryOptions);
    });
    rows = [...(result as unknown as Record<string, unknown>[])];
    columns = ((result as unknown as { columns?: { name: string }[] }).columns ?? []).map((c) =>
      c.name.toLowerCase(),
    );
  } catch (error) {
    const code = (error as { code?: string }).code;
    // A refused login (SQLSTATE class 28) is worded by the server with the user's name
    // ('role "alice" does not exist'): the errors name the database, never who logs in.
    const text = code?.startsWith("28")
      ? "the server refused the login (user or password)"
      : error instanceof Error
        ? error.message
        : String(error);
    if (isSeveralStatements(error))
      throw new LedgerQueryError(
        "failed",
        `the ledger query on ${source} was not run: it holds several statements; RECONCILER_LEDGER_QUERY must be one SELECT (it runs read-only, alone)`,
      );
    // 57014 query_canceled (statement_timeout), 55P03 lock_not_available (lock_timeout).
    const timedOut =
      code === "57014" || code === "55P03"
        ? ` (gave up after ${timeoutMs} ms: RECONCILER_LEDGER_QUERY_TIMEOUT)`
        : "";
    // postgres.js errors name the query problem; a connection error names host and port only.
    throw new LedgerQueryError(
      "failed",
      `the ledger query on ${source} failed: ${code ? `${code} ` : ""}${text.replaceAll(opts.url, source)}${timedOut}`,
    );
  } finally {
    await client.end({ timeout: 5 });
  }
  const problem = headerProblem(columns);
  if (problem)
    throw new LedgerQueryError("refused", `the ledger query on ${source} returns ${problem}`);
  const values: LedgerRowValues[] = rows.map((row, i) => {
    const v: Partial<Record<LedgerColumn, string>> = {};
    for (const column of LEDGER_COLUMNS) v[column] = asText(row[column]);
    return { line: i + 1, values: v };
  });
  const entryIdOf = (line: number) => asText(rows[line - 1]?.entry_id) ?? "(none)";
  const where = (line: number) => `row ${line} (entry_id ${entryIdOf(line)})`;
  const checked = checkLedgerRows(values, where, opts.entities);
  if (checked.errors.length > 0)
    throw new LedgerQueryError(
      "refused",
      `the ledger query on ${source}: ${checked.errors.length} bad row(s), nothing imported`,
      checked.errors.map((e) => `${where(e.line)}: ${e.reason}`),
    );
  const sourceFile = `query:${source}`;
  // An empty answer is more likely a query or table gone wrong than a ledger emptied on purpose.
  if (opts.complete && checked.entries.length === 0 && (await holdsEntries(db, sourceFile)))
    throw new LedgerQueryError(
      "failed",
      `the ledger query on ${source} returned no rows: with RECONCILER_LEDGER_QUERY_COMPLETE it would delete every entry it imported, so nothing was deleted (delete them in ledger_entries if that is meant)`,
    );
  try {
    const result = await importLedgerEntries(db, checked.entries, {
      sourceFile,
      complete: opts.complete === true,
    });
    return { source, ...result };
  } catch (error) {
    // A value our database refuses is the rows' fault, as for a file; any other error (our
    // database away) is the step failing, and is thrown as it is.
    const refusal = dataRefusal(error);
    if (refusal === undefined) throw error;
    throw new LedgerQueryError(
      "refused",
      `the ledger query on ${source}: the database refused a row, nothing imported`,
      [refusal],
    );
  }
}

/** True when some ledger entry was last imported from `sourceFile`. */
async function holdsEntries(db: Db, sourceFile: string): Promise<boolean> {
  const [row] = await queryRows<{ held: unknown }>(
    db,
    sql`SELECT EXISTS (SELECT 1 FROM ledger_entries WHERE source_file = ${sourceFile}) AS held`,
  );
  return isTrue(row?.held);
}
