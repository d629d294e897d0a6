// The run's options as SQL literals, and its statements (db/statement.ts) for the passes.
import type { ResolvedMatchOptions } from "./match-options";

export type { RunStatement, Statement } from "../db/statement";

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
