// How a match run's transaction is set up: one matcher at a time, and the planner settings the
// passes were measured with. Kept apart from the business rules in passes/.
import { advisoryKey } from "../db/advisory-key";
import type { Statement } from "./statement";

export const plannerSettings: Statement[] = [
  // One matcher at a time: two interleaved runs would each see the other's half-written rows.
  { name: "lock", text: `SELECT pg_advisory_xact_lock(${advisoryKey("match")})` },
  { name: "memory", text: `SET LOCAL work_mem = '128MB'` },
  {
    // The planner's cost of the exact pass's million-row join makes JIT inline and optimise
    // it: close to a second of compiling for a statement of about two.
    name: "no jit",
    text: "SET LOCAL jit = off",
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
 * Temporary tables have no statistics until analysed: after a pass grows one, fresh statistics
 * keep the next pass's anti-joins hashed instead of looping.
 */
export function analyzedAfter(statement: Statement): Statement[] {
  const grown = /INSERT INTO (run_members|run_break_items)\b/.exec(statement.text)?.[1];
  return grown
    ? [statement, { name: `${statement.name} (analyze)`, text: `ANALYZE ${grown}` }]
    : [statement];
}
