// A match run whose inputs did not change since the last run that wrote its results reuses
// them instead of matching everything again: the cost of a scheduled cycle with nothing new
// is a few counts, not a full match. What the results depend on:
//   - the data: provider records and their versions (every change adds a version row), the
//     ledger entries (count and last update: a deletion changes the count), and which
//     serviceIds are fetched (cash legs are judged once fetched) — the fingerprint;
//   - the options (tolerances, grace periods);
//   - time: a pending break opens when its grace ends, an authorization goes stale — the
//     run's valid_until, the first such moment after its as_of.
// Any difference, `--full`, or an incomplete sync makes a full run.
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { queryRows, queryText } from "../db/query-rows";
import type { ResolvedMatchOptions } from "./match-options";
import type { MatchStats } from "./match-stats";
import { literals } from "./statement";

/** The fingerprint of what a run's results depend on in the data. */
export async function dataFingerprint(tx: Db): Promise<string> {
  const [row] = await queryText<{ fingerprint: string }>(
    tx,
    `SELECT concat_ws('|',
       (SELECT count(*) FROM card_transaction_versions),
       (SELECT count(*) FROM operate_record_versions),
       (SELECT count(*) FROM account_transaction_versions),
       (SELECT count(*) || '@' || coalesce(max(updated_at)::text, '') FROM ledger_entries),
       (SELECT count(fetched_at) || '@' || coalesce(max(fetched_at)::text, '') FROM service_ids)
     ) AS fingerprint`,
  );
  return row?.fingerprint ?? "";
}

/** When a pending break (a row of breaks or run_breaks) opens: its grace period's end. */
export function graceEnd(o: ResolvedMatchOptions): string {
  const v = literals(o);
  return `CASE class
    WHEN 'missing_at_provider' THEN occurred_at + ${v.providerGrace}
    WHEN 'status_mismatch' THEN occurred_at + ${v.pendingGrace}
    WHEN 'missing_in_ledger' THEN occurred_at + ${v.ledgerGrace} END`;
}

/**
 * The first moment after as_of at which time alone changes the stored results (called after
 * the run wrote them); null when none will.
 */
export async function validUntil(tx: Db, o: ResolvedMatchOptions): Promise<Date | null> {
  const v = literals(o);
  const [row] = await queryText<{ until: string | null }>(
    tx,
    `SELECT least(
       (SELECT min(${graceEnd(o)}) FROM breaks WHERE status = 'pending'),
       (SELECT min(transaction_time) + ${v.stale} FROM card_transactions
         WHERE txn_type = 'AUTHORIZATION' AND txn_status = 'P'
           AND transaction_time >= ${v.asOf} - ${v.stale})
     )::text AS until`,
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
 * The last run that wrote its results, when its results still hold for a run with these
 * options, this fingerprint, at this as_of; undefined otherwise.
 */
export async function reusableRun(
  tx: Db,
  o: ResolvedMatchOptions,
  params: Record<string, unknown>,
  fingerprint: string,
): Promise<ReusableRun | undefined> {
  if (o.full) return undefined;
  const [last] = await queryRows<{
    id: string;
    verdict: string;
    stats: string;
    params: string;
    fingerprint: string;
    as_of: string;
    valid_until: string | null;
  }>(
    tx,
    sql`SELECT id, verdict, stats::text AS stats, params::text AS params, fingerprint,
        as_of::text AS as_of, valid_until::text AS valid_until
      FROM match_runs WHERE finished_at IS NOT NULL AND fingerprint IS NOT NULL
      ORDER BY started_at DESC LIMIT 1`,
  );
  if (!last || last.fingerprint !== fingerprint) return undefined;
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
