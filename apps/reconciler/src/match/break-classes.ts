// The break classes matching reports and their priorities (1 = act first).

export type BreakClass =
  | "missing_in_ledger"
  | "missing_at_provider"
  | "amount_mismatch"
  | "currency_mismatch"
  | "duplicate_in_ledger"
  | "status_mismatch"
  | "fee_mismatch"
  | "orphan_refund_or_reversal"
  | "stale_authorization"
  | "cash_leg_mismatch"
  | "proposed_match";

/**
 * Priority per class, after Formance's order: money booked with nothing behind it first (P1),
 * then wrong amounts and duplicates (P2), then money the ledger has not booked yet and matches
 * waiting for a person (P3), then stock to watch (P4).
 */
export const BREAK_PRIORITY: Readonly<Record<BreakClass, 1 | 2 | 3 | 4>> = {
  missing_at_provider: 1,
  status_mismatch: 1,
  amount_mismatch: 2,
  currency_mismatch: 2,
  duplicate_in_ledger: 2,
  fee_mismatch: 2,
  cash_leg_mismatch: 2,
  orphan_refund_or_reversal: 2,
  missing_in_ledger: 3,
  proposed_match: 3,
  stale_authorization: 4,
};

export const BREAK_CLASSES = Object.keys(BREAK_PRIORITY) as BreakClass[];

/** The verdict of a run, worst first. */
export type Verdict = "incomplete" | "breaks" | "reconciled_with_pending" | "reconciled";
