// A match run whose inputs did not change since the last run that wrote its results reuses
// them instead of matching everything again: the cost of a scheduled cycle with nothing new
// is a few lookups, not a full match. What the results depend on:
//   - the data: the provider records, the ledger and which serviceIds are fetched — every
//     write to them logs a row in match_changes (triggers, migration 0010), so an empty log
//     says nothing changed (incremental/change-log.ts);
//   - the options (tolerances, grace periods);
//   - time: a pending break opens when its grace ends, an authorization goes stale — the
//     run's valid_until, the first such moment after its as_of.
// Any difference, `--full`, or an incomplete sync makes a run that matches.
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { queryRows, queryText } from "../db/query-rows";
import { REAL_SCHEMA } from "../db/real-schema";
import { CLOCKED_CLASSES, graceEnd } from "./break-classes";
import type { ResolvedMatchOptions } from "./match-options";
import type { MatchStats } from "./match-stats";
import { literals } from "./statement";
import { HAS_TOTALS } from "./stored-totals";

/**
 * The first moment after as_of at which time alone changes the stored results (called after
 * the run wrote them); null when none will.
 */
export async function validUntil(tx: Db, o: ResolvedMatchOptions): Promise<Date | null> {
  const v = literals(o);
  // An incremental run still holds its scope's temporary copies of the provider tables (found
  // first on the search path): records outside the scope turn too, so a clock reads the real
  // tables, in the schema the reconciler's tables live in (as buildScope does).
  const [where] = await queryText<{ schema: string }>(tx, REAL_SCHEMA);
  if (!where?.schema) throw new Error("no current schema to read card_transactions from");
  const moments = [
    `(SELECT min(${graceEnd(v)}) FROM breaks WHERE status = 'pending')`,
    ...CLOCKED_CLASSES.map((c) => c.clock.nextAt(v, where.schema)),
  ];
  const [row] = await queryText<{ until: string | null }>(
    tx,
    `SELECT least(${moments.join(", ")})::text AS until`,
  );
  return row?.until ? new Date(row.until) : null;
}

// jsonb keeps its own key order: compare the options by sorted keys.
const canonical = (o: Record<string, unknown>) => JSON.stringify(Object.entries(o).sort());

/** True when a run's recorded options (match_runs.params, as text) are `params`. */
export const sameParams = (recorded: string, params: Record<string, unknown>) =>
  canonical(JSON.parse(recorded)) === canonical(params);

export interface ReusableRun {
  id: string;
  verdict: string;
  stats: Record<string, number>;
  validUntil: Date | null;
}

/**
 * Marks a run (match_runs.fingerprint, null otherwise; the column is named for an older use)
 * whose results later runs may reuse or build on: complete, and written.
 */
export const BUILDABLE = "change-log";

/**
 * The last run that wrote its results, when its results still hold for a run with these
 * options at this as_of and nothing was logged as changed since; undefined otherwise.
 */
export async function reusableRun(
  tx: Db,
  o: ResolvedMatchOptions,
  params: Record<string, unknown>,
): Promise<ReusableRun | undefined> {
  if (o.full) return undefined;
  const [last] = await queryRows<{
    id: string;
    verdict: string;
    stats: string;
    params: string;
    as_of: string;
    valid_until: string | null;
  }>(
    tx,
    sql`SELECT id, verdict, stats::text AS stats, params::text AS params,
        as_of::text AS as_of, valid_until::text AS valid_until
      FROM match_runs WHERE finished_at IS NOT NULL AND fingerprint IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM match_changes)
        -- The results are still there: a restore without the match tables, a TRUNCATE or a
        -- promoted standby leaves them empty, and reusing the last run's verdict over empty
        -- tables would report every statement difference "unexplained".
        AND ${sql.raw(HAS_TOTALS)}
      ORDER BY started_at DESC LIMIT 1`,
  );
  if (!last) return undefined;
  if (!sameParams(last.params, params)) return undefined;
  const asOf = o.asOf.getTime();
  if (asOf < new Date(last.as_of).getTime()) return undefined;
  if (last.valid_until !== null && asOf >= new Date(last.valid_until).getTime()) return undefined;
  return {
    id: last.id,
    verdict: last.verdict,
    stats: JSON.parse(last.stats),
    validUntil: last.valid_until === null ? null : new Date(last.valid_until),
  };
}

/** MatchStats back from the flat form match_runs.stats keeps. */
export function statsOf(flat: Record<string, number>): MatchStats {
  const prefixed = (prefix: string) =>
    Object.fromEntries(
      Object.entries(flat)
        .filter(([k]) => k.startsWith(prefix))
        .map(([k, n]) => [k.slice(prefix.length), n]),
    );
  return {
    providerItems: flat.providerItems ?? 0,
    ledgerEntries: flat.ledgerEntries ?? 0,
    matched: prefixed("matched."),
    openBreaks: flat.openBreaks ?? 0,
    pendingItems: flat.pendingItems ?? 0,
    breaksByClass: prefixed("breaks."),
    newBreaks: 0,
    resolvedBreaks: 0,
  };
}
