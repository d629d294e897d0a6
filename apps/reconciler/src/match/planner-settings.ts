// How a match run's transaction is set up: one matcher at a time, and the planner settings the
// passes were measured with. Kept apart from the business rules in passes/.
import { advisoryKey } from "../db/advisory-key";
import type { Statement } from "./statement";

export const plannerSettings: Statement[] = [
  // One matcher at a time: two interleaved runs would each see the other's half-written rows.
  { name: "lock", text: `SELECT pg_advisory_xact_lock(${advisoryKey("match")})` },
  { name: "memory", text: `SET LOCAL work_mem = '128MB'` },
  {
    // A first run builds match_pairs' key over a million pairs at once: with the default 64MB
    // its sort spills to disk.
    name: "index memory",
    text: `SET LOCAL maintenance_work_mem = '256MB'`,
  },
  {
    // The planner's cost of the exact pass's million-row join makes JIT inline and optimise
    // it: close to a second of compiling for a statement of about two.
    name: "no jit",
    text: "SET LOCAL jit = off",
  },
  {
    // Every ANALYZE of the run is of its own work tables (and the copies of an incremental
    // run's scope), which live for one transaction: a small sample (3,000 rows instead of
    // 30,000) is enough for the planner to tell a key from a repeated value and so to pick its
    // joins, at a fraction of the cost (the text columns are sorted under the database's
    // collation). Set once for the run rather than around each ANALYZE: an incremental run
    // analyses a dozen small tables, and each setting is a round trip of its own.
    name: "small samples",
    text: "SET LOCAL default_statistics_target = 10",
  },
  {
    // Hash joins throughout: the planner, misled by the views' and temporary tables'
    // estimates, would otherwise sort a million rows for a merge join (3× slower); no
    // statement of the run gains from sorted input.
    name: "planner",
    text: "SET LOCAL enable_mergejoin = off",
  },
];

/**
 * Around the passes: hash joins only. The passes join whole work tables and CTEs; a CTE has no
 * statistics and a filtered window (`rn = 1`) is estimated at a row or two when it holds tens
 * of thousands, and the planner then loops over it, rescanning it or a work table for each row
 * (a first match on the sandbox's 500,000 card transactions spent 235 of its 254 s so, against
 * 23.5 s with nested loops off). A lookup the passes mean to be a probe per row is a subquery
 * (SubPlan) or LATERAL, which this leaves as it is. The scope's growing before them and the
 * writes after them probe large stored tables by index per row: nested loops stay on there.
 */
export const passesPlanner: { before: Statement; after: Statement } = {
  before: { name: "passes: hash joins", text: "SET LOCAL enable_nestloop = off" },
  after: { name: "passes: hash joins (end)", text: "SET LOCAL enable_nestloop = on" },
};

/**
 * Temporary tables have no statistics until analysed: after a pass grows one, fresh statistics
 * keep the next pass's anti-joins hashed instead of looping.
 */
export function analyzedAfter(statement: Statement): Statement {
  const grown = /INSERT INTO (run_members|run_break_items)\b/.exec(statement.text)?.[1];
  return grown ? { ...statement, analyze: `${grown} ${LOOKED_UP[grown]}` } : statement;
}

/**
 * The columns the passes look records up by (openProvider, openLedger): only they are
 * analysed, a third of the time of every column.
 */
const LOOKED_UP: Record<string, string> = {
  run_members: "(side, record_kind, record_ref)",
  run_break_items: "(side, item_kind, item_ref)",
};

/**
 * ANALYZE of work tables, from the run's small sample (plannerSettings).
 */
export function sampled(name: string, tables: string): Statement[] {
  return [{ name, text: `ANALYZE ${tables}` }];
}

/**
 * ANALYZE of a stored table, which outlives the run: from the default sample (its statistics
 * serve every later query until autovacuum analyses it again).
 */
export function fullyAnalyzed(name: string, table: string): Statement[] {
  return [
    { name: `${name} (sample)`, text: "SET LOCAL default_statistics_target = DEFAULT" },
    { name, text: `ANALYZE ${table}` },
    { name: `${name} (sample end)`, text: "SET LOCAL default_statistics_target = 10" },
  ];
}
