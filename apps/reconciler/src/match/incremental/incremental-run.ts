// Whether a match run can re-match only what changed, and the steps that make it so. A run is
// incremental when the stored results are a complete run's (same options, an earlier as_of,
// match tables not emptied by a crash) and what changed since is a small part of the data;
// otherwise, or with `full`, it matches everything. Both kinds run the same passes; an
// incremental one runs them over copies of its scope (scoped-tables.ts) and writes only the
// scope's results (persist-statements.ts, `scoped`).
import { sql } from "drizzle-orm";
import type { Db } from "../../db/database";
import { isTrue, queryRows, queryText } from "../../db/query-rows";
import type { ResolvedMatchOptions } from "../match-options";
import { literals, type RunStatement, type Statement } from "../statement";
import { HAS_TOTALS } from "../stored-totals";
import { type CopiedColumns, copiedColumns, SOURCE_COLUMNS } from "./copied-columns";
import { type KeyBounds, readKeyBounds } from "./key-bounds";
import { openBreakKeys } from "./open-breaks";
import { frontierSize, type ScopeReach, scopeRound, scopeSeeds } from "./scope";
import {
  probedIndexes,
  SOURCE_INDEXES,
  type SourceIndex,
  scopedTables,
  VIEW_DEFINITION,
} from "./scoped-tables";
import { sourceTables } from "./source-tables";
import { storedGroups, storedKinds } from "./stored-kinds";

export interface IncrementalBase {
  asOf: Date;
  /** Provider items and ledger entries of the last run: the scope's size is measured against them. */
  records: number;
}

/** The last complete run with written results, if this run can build on it. */
export async function incrementalBase(
  tx: Db,
  o: ResolvedMatchOptions,
  sameParams: (params: string) => boolean,
): Promise<IncrementalBase | undefined> {
  if (o.full) return undefined;
  const [last] = await queryRows<{ as_of: string; params: string; stats: string }>(
    tx,
    sql`SELECT as_of::text AS as_of, params::text AS params, stats::text AS stats
      FROM match_runs WHERE finished_at IS NOT NULL AND fingerprint IS NOT NULL
      ORDER BY started_at DESC LIMIT 1`,
  );
  if (!last || !sameParams(last.params)) return undefined;
  const asOf = new Date(last.as_of);
  if (o.asOf.getTime() < asOf.getTime()) return undefined;
  const [state] = await queryText<{ stored: boolean | string }>(
    tx,
    `SELECT EXISTS (SELECT 1 FROM match_pairs) AND ${HAS_TOTALS} AS stored`,
  );
  // Match tables emptied (by hand, by a restore) hold no totals; results written before migration 0012 have no
  // totals (stored-totals.ts).
  if (!isTrue(state?.stored)) return undefined;
  const stats = JSON.parse(last.stats) as Record<string, number>;
  return { asOf, records: (stats.providerItems ?? 0) + (stats.ledgerEntries ?? 0) };
}

/** The source of the functions that read the copies: the finance days of the scope's records. */
const FINANCE_DAYS_SOURCE = `SELECT string_agg(prosrc, E'\\n') AS source FROM pg_proc
  WHERE proname IN ('finance_log_scope_days', 'finance_row_days_sql')`;

/** A scope still growing after this many rounds is matched in full instead. */
const MAX_ROUNDS = 20;

/** An incremental run's scope, once built. */
export interface Scope {
  /** How many records (provider keys and ledger entries) it holds. */
  records: number;
  /** The ranges of keys its lookups were bounded by, which its writes' lookups use too. */
  bounds: KeyBounds;
}

/**
 * Builds the scope and its copies for `passes` (the statements that will read them); undefined
 * (nothing created that the passes would read) when the scope is too large to be worth it and
 * the run matches everything.
 */
export async function buildScope(
  tx: Db,
  o: ResolvedMatchOptions,
  base: IncrementalBase,
  timed: RunStatement,
  passes: readonly Statement[],
): Promise<Scope | undefined> {
  const [view] = await queryText<{ schema: string; definition: string }>(tx, VIEW_DEFINITION);
  if (!view?.definition) throw new Error("the provider_items view is missing");
  const indexes = await queryText<SourceIndex>(tx, SOURCE_INDEXES);
  const bounds = await readKeyBounds(tx);
  const reach: ScopeReach = {
    kinds: storedKinds(bounds),
    tables: await sourceTables(tx),
    groups: await storedGroups(tx),
    bounds,
  };
  const { tolerance } = literals(o);
  const schema = `"${view.schema.replaceAll('"', '""')}"`;
  const definition = view.definition.trim().replace(/;$/, "");
  // What reads the copies: the passes, the view over them and the function logging the scope's
  // finance days (migration 0034). A table without rows is copied empty: nothing to probe.
  const [days] = await queryText<{ source: string | null }>(tx, FINANCE_DAYS_SOURCE);
  const reads = [...passes.map((s) => s.text), definition, days?.source ?? ""].join("\n");
  const probed = probedIndexes(
    indexes.filter((i) => reach.tables.has(i.tablename)),
    reads,
  );
  // The copies' columns: what those read, what the scope's own statements read of the card
  // records and entries it keeps, and what the copies' indexes name (a partial one's predicate).
  const everything: CopiedColumns = { of: (_table, alias) => (alias ? `${alias}.*` : "*") };
  const columns = copiedColumns(
    await queryText(tx, SOURCE_COLUMNS),
    [
      reads,
      ...scopeRound(0, reach, tolerance, everything).map((s) => s.text),
      ...probed.map((i) => i.indexdef),
    ].join("\n"),
  );
  for (const s of [...scopeSeeds(o, base.asOf, columns), ...openBreakKeys]) await timed(tx, s);
  let records = 0;
  for (let round = 0; ; round++) {
    if (round === MAX_ROUNDS) {
      records = Number.POSITIVE_INFINITY;
      break;
    }
    for (const s of scopeRound(round, reach, tolerance, columns)) await timed(tx, s);
    const [row] = await queryText<{ found: string; records: string }>(tx, frontierSize(round));
    records = Number(row?.records);
    if (Number(row?.found) === 0) break;
  }
  // Past this share of the records, matching everything costs less than the scope.
  if (records > o.maxScopeShare * base.records) return undefined;
  for (const s of scopedTables({ schema, providerItemsView: definition, reach, probed, columns }))
    await timed(tx, s);
  return { records, bounds };
}
