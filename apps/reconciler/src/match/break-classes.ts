// The break classes matching reports, read off the passes that declare them (match-passes.ts),
// and what follows from their descriptors: the priority column, the grace periods' end, the
// holds. Adding a class is its pass file (with its descriptor) and its place in MATCH_PASSES.
import type { BreakClassDescriptor } from "./break-class";
import { MATCH_PASSES } from "./match-passes";
import type { Literals } from "./statement";

/** Every class, by priority, then in the order the passes first report them. */
export const BREAK_CLASS_DESCRIPTORS: readonly BreakClassDescriptor[] = MATCH_PASSES.flatMap(
  (pass): readonly BreakClassDescriptor[] => pass.classes,
).sort((a, b) => a.priority - b.priority);

type Declared<P> = P extends { classes: readonly (infer D)[] }
  ? D extends BreakClassDescriptor<infer N>
    ? N
    : never
  : never;

export type BreakClass = Declared<(typeof MATCH_PASSES)[number]>;

export const BREAK_CLASSES = BREAK_CLASS_DESCRIPTORS.map((c) => c.name) as BreakClass[];

/** Priority per class (1 = act first). */
export const BREAK_PRIORITY = Object.fromEntries(
  BREAK_CLASS_DESCRIPTORS.map((c) => [c.name, c.priority]),
) as Readonly<Record<BreakClass, 1 | 2 | 3 | 4>>;

/** Classes that are holds to watch (money reserved, not yet a difference), not work to do. */
export const HOLD_CLASSES: ReadonlySet<string> = new Set(
  BREAK_CLASS_DESCRIPTORS.filter((c) => c.hold).map((c) => c.name),
);

/** The classes whose descriptor has a clock (time alone opens them). */
export const CLOCKED_CLASSES = BREAK_CLASS_DESCRIPTORS.filter(
  (c): c is BreakClassDescriptor & Required<Pick<BreakClassDescriptor, "clock">> =>
    c.clock !== undefined,
);

/** When a pending break (a row of breaks or run_breaks) opens: its class's grace period's end. */
export function graceEnd(v: Literals, classes = BREAK_CLASS_DESCRIPTORS): string {
  const arms = classes.flatMap((c) =>
    c.grace ? [`WHEN '${c.name}' THEN occurred_at + ${c.grace(v)}`] : [],
  );
  return `CASE class ${arms.join(" ")} END`;
}

/** The verdict of a run, worst first. */
export type Verdict = "incomplete" | "breaks" | "reconciled_with_pending" | "reconciled";
