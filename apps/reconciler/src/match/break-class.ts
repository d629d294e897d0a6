// A break class described once, in the pass file that first reports it: its name, priority,
// what it means, and how time alone changes it. Everything else that knows about classes —
// the break's priority column, the grace periods, when an unchanged run's results expire, what
// an incremental run's scope starts from, which classes are holds — is derived from the
// descriptors the ordered list of passes carries (match-passes.ts).
import type { Literals } from "./statement";

export interface BreakClassDescriptor<Name extends string = string> {
  /** The class as stored (breaks.class) and typed on the command line. */
  readonly name: Name;
  /** 1 = act first: after Formance's order (money with nothing behind it, then wrong amounts). */
  readonly priority: 1 | 2 | 3 | 4;
  /** One line saying what the break means, for help texts and the docs. */
  readonly meaning: string;
  /** Money reserved to watch (a hold), not a difference to work: reports show it apart. */
  readonly hold?: true;
  /**
   * A break of this class is pending (not yet a difference) until `grace` after its
   * occurred_at; the pass sets the status with the same interval. SQL interval.
   */
  readonly grace?: (v: Literals) => string;
  /**
   * Time alone opens a break of this class on a provider record that did not change (an
   * authorization going stale): `keysReached` selects (key, 0) of the records it opened on in
   * (lastAsOf, asOf], which an incremental run's scope starts from; `nextAt` is the first such
   * moment after asOf (SQL timestamptz or NULL), when an unchanged run's results expire.
   * `schema` names where the real provider tables live (an incremental run shadows them).
   */
  readonly clock?: {
    readonly keysReached: (v: Literals, lastAsOf: string) => string;
    readonly nextAt: (v: Literals, schema: string) => string;
  };
}

/** Declares a class, keeping its literal types (BreakClass is derived from the names). */
export const breakClass = <const D extends BreakClassDescriptor>(descriptor: D): D => descriptor;

/** The class as a SQL literal, for a pass's class column. */
export const classSql = (c: BreakClassDescriptor): string => `'${c.name}'`;
