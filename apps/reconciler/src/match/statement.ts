// One SQL statement of a match run, and the run's options as SQL literals.
import type { Db } from "../db/database";
import type { ResolvedMatchOptions } from "./match-options";

export interface Statement {
  name: string;
  text: string;
  /**
   * A temporary work table the statement grows, analysed after it when it wrote rows (one that
   * wrote none leaves the table, and so its statistics, as they were).
   */
  analyze?: string;
}

/** Runs a statement of the run, timed (and its work table analysed when it grew). */
export type RunStatement = (tx: Db, statement: Statement) => Promise<void>;

/** Literals of the run, checked before they are written into SQL (DDL takes no parameters). */
export function literals(o: ResolvedMatchOptions) {
  const ms = (value: number) => `interval '${Math.trunc(value)} milliseconds'`;
  return {
    asOf: `'${o.asOf.toISOString()}'::timestamptz`,
    ledgerGrace: ms(o.ledgerGraceMs),
    providerGrace: ms(o.providerGraceMs),
    pendingGrace: ms(o.pendingStatusGraceMs),
    stale: ms(o.staleAuthorizationMs),
    tolerance: `${o.tolerance}::numeric`,
    window: ms(o.toleranceWindowMs),
  };
}

export type Literals = ReturnType<typeof literals>;
