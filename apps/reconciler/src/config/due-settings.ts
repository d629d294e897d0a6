// When an open break is due: a number of days from its record's business time (its age), set per
// priority (the class's, break-class.ts) or per class, and halved (rounded up) for a break whose
// amount at stake is large. The defaults follow the priorities: money booked with nothing behind
// it first. Read from RECONCILER_DUE_DAYS and RECONCILER_DUE_LARGE_AMOUNT (load-config.ts).

export interface DueSettings {
  /** Days per priority: P1 … P4. */
  readonly days: readonly [number, number, number, number];
  /** Days per class, over its priority's (a class named in RECONCILER_DUE_DAYS). */
  readonly classDays: Readonly<Record<string, number>>;
  /** From this amount at stake (in the break's own currency) up, the days are halved. */
  readonly largeAmount: string;
}

export const DEFAULT_DUE: DueSettings = {
  days: [2, 5, 10, 30],
  classDays: {},
  largeAmount: "10000",
};

export const DEFAULT_DUE_DAYS = "p1=2,p2=5,p3=10,p4=30";
export const DEFAULT_DUE_LARGE_AMOUNT = "10000";

const MAX_DAYS = 366;

/**
 * "p1=1,p3=7,missing_in_ledger=3" over the defaults; a rule broken is answered as text naming
 * the part. `classes`: the known class names, when the caller knows them.
 */
export function parseDueDays(
  text: string,
  classes?: readonly string[],
): Pick<DueSettings, "days" | "classDays"> | string {
  const days = [...DEFAULT_DUE.days] as [number, number, number, number];
  const classDays: Record<string, number> = {};
  for (const part of text.split(",").map((p) => p.trim())) {
    const m = /^([a-z0-9_]+)=(\d{1,3})$/i.exec(part);
    if (!m)
      return `must be NAME=DAYS pairs separated by commas ("p1=2,p2=5,missing_in_ledger=3"); "${part.slice(0, 40)}" is not one`;
    const name = (m[1] as string).toLowerCase();
    const n = Number(m[2]);
    if (n < 1 || n > MAX_DAYS) return `${name}: days must be from 1 to ${MAX_DAYS} (got ${n})`;
    const priority = /^p([1-4])$/.exec(name);
    if (priority) days[Number(priority[1]) - 1] = n;
    else if (classes && !classes.includes(name))
      return `${name} is neither a priority (p1–p4) nor a break class (${classes.join(", ")})`;
    else classDays[name] = n;
  }
  return { days, classDays };
}

/** A positive decimal amount ("10000", "2500.50"); undefined otherwise. */
export function parseLargeAmount(text: string): string | undefined {
  const t = text.trim().replaceAll(",", "");
  return /^\d{1,15}(\.\d{1,6})?$/.test(t) && /[1-9]/.test(t) ? t : undefined;
}
