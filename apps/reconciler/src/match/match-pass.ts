// One entry of the ordered list of passes (match-passes.ts): its statements, and the break
// classes it is the first to report (their descriptors live in its file).
import type { BreakClassDescriptor } from "./break-class";
import type { ResolvedMatchOptions } from "./match-options";
import type { Statement } from "./statement";

export interface MatchPass<
  Classes extends readonly BreakClassDescriptor[] = readonly BreakClassDescriptor[],
> {
  readonly classes: Classes;
  readonly statements: (o: ResolvedMatchOptions) => readonly Statement[];
}

/** A pass reporting `classes` (first in precedence); a later pass reuses them by import. */
export const matchPass = <const Classes extends readonly BreakClassDescriptor[]>(
  classes: Classes,
  statements: (o: ResolvedMatchOptions) => readonly Statement[],
): MatchPass<Classes> => ({ classes, statements });

/** A pass that defines no class: a match, or a break of a class an earlier pass declared. */
export const statementsOnly = (
  ...statements: (
    | Statement
    | readonly Statement[]
    | ((o: ResolvedMatchOptions) => Statement | readonly Statement[])
  )[]
): MatchPass<readonly []> => ({
  classes: [],
  statements: (o) =>
    statements.flatMap((s) => {
      const made = typeof s === "function" ? s(o) : s;
      return Array.isArray(made) ? made : [made as Statement];
    }),
});
