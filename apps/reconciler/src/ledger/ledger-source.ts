// What the cycle asks of a ledger source: take the merchant's entries in when the configuration
// names the source, and say how that went. The cycle, its summary line and exit code, and the
// CLI's log lines loop over the registered sources (sources/index.ts) and know none by name.
import type { ReconcilerConfig } from "../config/reconciler-config";
import type { Db } from "../db/database";

/**
 * How an intake ended: `done`; `busy` (another worker is taking it in: the cycle does not
 * match, exit 3); `refused` (input someone has to fix, nothing of it imported: exit 5);
 * `failed` (the source could not be read or imported: exit 1).
 */
export type IntakeState = "done" | "busy" | "refused" | "failed";

export interface LedgerIntake {
  state: IntakeState;
  /** What the cycle's summary line says of the source (its `ledger.<name>`). */
  summary: unknown;
  /** The log lines it calls for besides the summary line (errors, rejected input, warnings). */
  logLines(log: (line: string) => void): void;
}

export interface LedgerSource {
  /** The source's key in the summary line's `ledger` object. */
  readonly name: string;
  /**
   * Takes the source in, or answers undefined when the configuration does not name it. Never
   * rejects for the source's own failure: that is an intake in state `failed`.
   */
  intake(db: Db, config: ReconcilerConfig): Promise<LedgerIntake> | undefined;
}
