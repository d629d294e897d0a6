// An incremental run's input: the records of the scope, copied into temporary tables named like
// the tables they come from (the card records and entries as the scope grew, scope.ts; the
// others here, once the scope is whole). Postgres looks a name up in the session's temporary
// schema first, so the passes — unchanged, one text for both kinds of run — read the scope's
// records where a full run reads all of them. provider_items, a view, is recreated as a
// temporary view from its own definition (read before the copies exist, so it names the tables
// unqualified and binds to the copies). The copies are dropped at commit; nothing else in the
// transaction reads the provider tables or the ledger by these names once they exist (the
// proposal decisions' lapse, after the run's writes, names the real ones by REAL_SCHEMA, db/real-schema.ts).

import { sampled } from "../planner-settings";
import type { Statement } from "../statement";
import { type CopiedColumns, namedIn } from "./copied-columns";
import { type BoundedLookup, type KeyBounds, mayHold, mayHoldKind } from "./key-bounds";
import { recordOfKey, type ScopeReach } from "./scope";
import { probe } from "./scope-sql";
import { SOURCE_TABLES, type SourceTable } from "./source-tables";
import type { StoredKind } from "./stored-kinds";

/**
 * The copies, from the tables of `schema` (where the real ones live), with the `probed` indexes
 * and the `columns` the run reads; a table without rows (`reach.tables` holds those with rows)
 * is copied empty without a lookup.
 */
export function scopedTables(opts: {
  schema: string;
  providerItemsView: string;
  reach: ScopeReach;
  probed: readonly SourceIndex[];
  columns: CopiedColumns;
}): Statement[] {
  const { schema, providerItemsView, probed, columns } = opts;
  const { kinds, tables, bounds } = opts.reach;
  const real = (table: string) => `${schema}.${table}`;
  const copy = (table: SourceTable, select: string): Statement => ({
    name: `scope copy: ${table}`,
    text: `CREATE TEMP TABLE ${table} ON COMMIT DROP AS
      ${tables.has(table) ? select : `SELECT ${columns.of(table)} FROM ${real(table)} WHERE false`}`,
  });
  const byKey = (table: SourceTable, lookup: BoundedLookup, where: string) =>
    probe({
      outer: "scope_keys s",
      round: null,
      table: real(table),
      where,
      select: columns.of(table, "x"),
      guard: mayHold(bounds, lookup, "s.k"),
    });
  return [
    // The card records and entries, kept as the scope grew (scope.ts), are taken as they are.
    ...[
      ["scope_card_rows", "card_transactions"],
      ["scope_ledger_rows", "ledger_entries"],
    ].map(([kept, table]) => ({
      name: `scope copy: ${table}`,
      text: `ALTER TABLE ${kept} RENAME TO ${table}`,
    })),
    copy(
      "operate_records",
      `SELECT DISTINCT ON (operate_record_id) * FROM (
        ${byKey("operate_records", "operation", "x.operate_record_id = s.k")}
        UNION ALL ${byKey("operate_records", "operationRequest", "x.client_request_id = s.k")}) o`,
    ),
    copy(
      "operate_record_fees",
      probe({
        outer: "pg_temp.operate_records s",
        round: null,
        table: real("operate_record_fees"),
        where: "x.operate_record_id = s.operate_record_id",
        select: columns.of("operate_record_fees", "x"),
      }),
    ),
    copy("account_transactions", byKey("account_transactions", "posting", "x.service_id = s.k")),
    copy("service_ids", byKey("service_ids", "serviceId", "x.service_id = s.k")),
    {
      // The stored exact pairs of the scope's provider records (found by the record's key, or
      // a range of it for fees and account items), for the run's writes to diff against.
      name: "scope copy: stored pairs",
      text: `CREATE TEMP TABLE scope_pairs ON COMMIT DROP AS ${storedPairs(kinds, bounds)}`,
    },
    {
      name: "scope copy: provider_items",
      text: `CREATE TEMP VIEW provider_items AS ${providerItemsView}`,
    },
    ...probed.map(({ tablename, indexdef }) => ({
      name: `scope copy: ${tablename} index`,
      text: `CREATE INDEX ON pg_temp.${tablename}${indexdef.slice(indexdef.indexOf(" USING "))}`,
    })),
    ...sampled("scope copy: analyze", analyzed(probed)),
  ];
}

/** An index of a source table, as pg_indexes has it. */
export type SourceIndex = {
  tablename: SourceTable;
  indexdef: string;
};

/** The indexes of the real source tables (read before the copies exist, as the view is). */
export const SOURCE_INDEXES = `SELECT tablename, indexdef FROM pg_indexes
  WHERE schemaname = current_schema()
    AND tablename IN (${SOURCE_TABLES.map((t) => `'${t}'`).join(", ")})
  ORDER BY tablename, indexname`;

/**
 * The indexes of the real source tables a pass may probe, to build on their copies: the passes
 * run the same text over the copies as over the tables, and a probe the planner makes into a
 * table's index (a clearing's authorization by origin, an entry by provider_ref) is a scan of
 * the whole copy per row without it. Taken from the tables themselves, so an index a migration
 * adds for a new pass is on the copies too; not unique (the copy needs no constraint, only the
 * access path). Left out: an index on an expression (the day the finance views group by) or on
 * a column that no statement of the run (`reads`) names (the ledger import's source_file, the
 * re-read schedule's reread_at): other readers' access paths, which cost a copy their build
 * and nothing reads them there.
 */
export function probedIndexes(indexes: readonly SourceIndex[], reads: string): SourceIndex[] {
  const named = namedIn(reads);
  return indexes.filter(({ tablename, indexdef }) => {
    if (!indexdef.includes(" USING "))
      throw new Error(`unexpected index definition on ${tablename}: ${indexdef}`);
    return indexColumns(indexdef)?.every(named) ?? false;
  });
}

/** The columns of an index on plain columns (`USING btree (a, b)`); undefined for an expression. */
function indexColumns(indexdef: string): string[] | undefined {
  const key = / USING \w+ \(([^()]*)\)/.exec(indexdef)?.[1];
  return key?.split(",").map((c) => c.trim().split(" ")[0] as string);
}

/**
 * What the copies are analysed on: each copy's probed columns (the joins and lookups the planner
 * must cost; a third of the time of every column, as for the work tables), every column of the
 * scope's own tables.
 */
function analyzed(probed: readonly SourceIndex[]): string {
  const columns = new Map<string, Set<string>>();
  for (const { tablename, indexdef } of probed) {
    const set = columns.get(tablename) ?? new Set<string>();
    for (const c of indexColumns(indexdef) ?? []) set.add(c);
    columns.set(tablename, set);
  }
  const copies = SOURCE_TABLES.map((t) => {
    const set = columns.get(t);
    return set ? `${t} (${[...set].join(", ")})` : t;
  });
  return [
    ...copies,
    "scope_pairs",
    "scope_keys",
    "scope_entries",
    "scope_groups",
    "scope_breaks",
  ].join(", ");
}

/** The stored pairs of the scope's keys, looked up for the kinds the stored results hold. */
function storedPairs(kinds: ReadonlySet<StoredKind>, bounds: KeyBounds): string {
  const arms = [...kinds].flatMap((kind) =>
    kind === "cash"
      ? []
      : probe({
          outer: "scope_keys s",
          round: null,
          table: "match_pairs",
          where: recordOfKey(kind),
          select: "x.*",
          guard: mayHoldKind(bounds, `pair:${kind}`, kind, "s.k"),
        }),
  );
  // No pair of any kind stored: an empty table of match_pairs' shape.
  return arms.length > 0 ? arms.join("\n        UNION ") : "SELECT * FROM match_pairs WHERE false";
}

/** Reads the schema of the real tables and provider_items' definition (before any copy). */
export const VIEW_DEFINITION = `SELECT current_schema() AS schema,
  pg_get_viewdef(to_regclass('provider_items'), true) AS definition`;
