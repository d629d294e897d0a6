// The tolerances and grace periods of a match run, with their defaults.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface MatchOptions {
  /** "Now" for ages and grace periods; default the current time. */
  asOf?: Date | undefined;
  /** A provider record the ledger has not booked is pending, not a break, for this long (1 day). */
  ledgerGraceMs?: number | undefined;
  /** A ledger entry the provider does not have is pending for this long after booking (2 days). */
  providerGraceMs?: number | undefined;
  /** A booked record the provider still has P is pending for this long after its time (2 days). */
  pendingStatusGraceMs?: number | undefined;
  /** An authorization still P after this long is a stale authorization (7 days). */
  staleAuthorizationMs?: number | undefined;
  /** Tolerant fallback: largest amount difference, same currency (decimal text, "1.00"). */
  tolerance?: string | undefined;
  /** Tolerant fallback: largest distance between booking and provider time (3 days). */
  toleranceWindowMs?: number | undefined;
  /** The sync is lagging (an incomplete run) when a watermark is older than this (2 hours). */
  maxSyncLagMs?: number | undefined;
  /**
   * What an incomplete run writes: "nothing" (default: only the run row; matches and breaks
   * stay as the last complete run left them) or "all" (matches and breaks as computed).
   */
  onIncomplete?: "nothing" | "all" | undefined;
  /**
   * Match everything even when nothing changed since the last run that wrote its results
   * (unchanged-run.ts); default false: such a run reuses those results.
   */
  full?: boolean | undefined;
  /**
   * An incremental run (incremental/) whose scope exceeds this share of the records matches
   * everything instead, which then costs less (default 0.25; 1 always re-matches only the
   * scope, 0 never).
   */
  maxScopeShare?: number | undefined;
  /**
   * How long a run waits for writers whose changes are in the change log to commit before it
   * fails with ChangeLogBusyError (default 5 minutes; 0 waits without limit). A transaction
   * left open on a provider table or the ledger would otherwise hold every run.
   */
  changeLogWaitMs?: number | undefined;
  /**
   * Why the sync that ran just before this match (the same cycle's) left the provider data
   * incomplete, as the cycle saw it: each makes the run incomplete like syncProblems' own, even
   * when sync_runs could not record that sync (its database cut mid-run). Not part of the run's
   * params: an incomplete run is never reused.
   */
  syncReasons?: readonly string[] | undefined;
  /**
   * Called with each statement's plan (EXPLAIN, FORMAT JSON) before the statement runs: for
   * tests and performance work (match/statement-plans.test.ts). Not part of the run's params.
   */
  explain?: ((statement: string, plan: PlanNode) => void) | undefined;
}

/** A node of a plan as EXPLAIN (FORMAT JSON) writes it. */
export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "CTE Name"?: string;
  "Plan Rows": number;
  "Parent Relationship"?: string;
  Plans?: PlanNode[];
}

export interface ResolvedMatchOptions {
  asOf: Date;
  ledgerGraceMs: number;
  providerGraceMs: number;
  pendingStatusGraceMs: number;
  staleAuthorizationMs: number;
  tolerance: string;
  toleranceWindowMs: number;
  maxSyncLagMs: number;
  onIncomplete: "nothing" | "all";
  full: boolean;
  maxScopeShare: number;
  changeLogWaitMs: number;
  syncReasons: readonly string[];
  explain: MatchOptions["explain"];
}

const DECIMAL = /^\d{1,20}(\.\d{1,12})?$/;

function duration(name: string, value: number | undefined, fallback: number): number {
  const ms = value ?? fallback;
  if (!Number.isSafeInteger(ms) || ms < 0)
    throw new RangeError(`${name} must be a whole, non-negative number of milliseconds`);
  return ms;
}

function share(value: number | undefined): number {
  const s = value ?? 0.25;
  if (!(s >= 0 && s <= 1)) throw new RangeError("maxScopeShare must be between 0 and 1");
  return s;
}

export function resolveMatchOptions(opts: MatchOptions = {}): ResolvedMatchOptions {
  const asOf = opts.asOf ?? new Date();
  if (Number.isNaN(asOf.getTime())) throw new RangeError("asOf is not a valid date");
  const tolerance = opts.tolerance ?? "1.00";
  if (!DECIMAL.test(tolerance))
    throw new RangeError('tolerance must be a non-negative decimal such as "1.00"');
  return {
    asOf,
    ledgerGraceMs: duration("ledgerGraceMs", opts.ledgerGraceMs, DAY),
    providerGraceMs: duration("providerGraceMs", opts.providerGraceMs, 2 * DAY),
    pendingStatusGraceMs: duration("pendingStatusGraceMs", opts.pendingStatusGraceMs, 2 * DAY),
    staleAuthorizationMs: duration("staleAuthorizationMs", opts.staleAuthorizationMs, 7 * DAY),
    tolerance,
    toleranceWindowMs: duration("toleranceWindowMs", opts.toleranceWindowMs, 3 * DAY),
    maxSyncLagMs: duration("maxSyncLagMs", opts.maxSyncLagMs, 2 * HOUR),
    onIncomplete: opts.onIncomplete ?? "nothing",
    full: opts.full ?? false,
    maxScopeShare: share(opts.maxScopeShare),
    changeLogWaitMs: duration("changeLogWaitMs", opts.changeLogWaitMs, 5 * 60_000),
    syncReasons: opts.syncReasons ?? [],
    explain: opts.explain,
  };
}
