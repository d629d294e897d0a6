// Figures computed per day from the finance data, kept and recomputed only for the days a write
// changed. The console's report page reads the statement, the currency bridge and the fees,
// which over every record take seconds (100,000 card transactions on PGlite); an accept or a
// sync changes the lines of a few days. Each write names those days in finance_changes
// (migration 0032, db/finance-changes.ts), in its own transaction: the cache reads its figures
// and that log under one snapshot, and next time recomputes the days written since.
import type { Db } from "../db/database";
import {
  currentSnapshot,
  daysChangedSince,
  FIGURES_MAX_AGE_MS,
  type ReadSnapshot,
} from "../db/finance-changes";
import { queryText } from "../db/query-rows";

/**
 * Computes the figures of `days` (YYYY-MM-DD), or of every day when undefined, keyed by day
 * (a day with no figures is absent). Called inside the cache's read-only transaction.
 */
type ComputeDays<T> = (db: Db, days: string[] | undefined) => Promise<Map<string, T>>;

/**
 * Planner settings of the cache's reads: a few days' lines are joined to every match member by
 * a hash; left alone, the planner, misled by the union views' estimates, sorts every member for
 * a merge join or loops over them (seconds to minutes instead of a fraction of a second). No
 * JIT: a join the settings cannot avoid keeps their penalty in its cost, which makes Postgres
 * compile each statement for seconds.
 */
const PLANNER = [
  "SET LOCAL enable_mergejoin = off",
  "SET LOCAL enable_nestloop = off",
  "SET LOCAL work_mem = '64MB'",
  "SET LOCAL jit = off",
];

export class FiguresCache<T> {
  readonly #compute: ComputeDays<T>;
  #days = new Map<string, T>();
  /** The snapshot the kept figures were read under, and when (this process's clock). */
  #snapshot: ReadSnapshot | undefined;
  #readAt = 0;
  /** Reads one at a time: two page loads never interleave their updates. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(compute: ComputeDays<T>) {
    this.#compute = compute;
  }

  /**
   * The figures of every day as the database holds them now: the kept ones, with the days
   * written since they were read computed again (all of them when the log cannot tell: a
   * truncate, a large write, figures older than the log keeps).
   */
  read(db: Db): Promise<ReadonlyMap<string, T>> {
    const next = this.#queue.then(() => this.#refresh(db));
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async #refresh(db: Db): Promise<ReadonlyMap<string, T>> {
    const startedAt = Date.now();
    // One snapshot for the log and the figures: every statement of a repeatable-read
    // transaction sees the same commits (on a hot standby too, where serializable is refused).
    const { days, snapshot } = await db.transaction(
      async (tx) => {
        const snapshot = await currentSnapshot(tx);
        const kept =
          this.#snapshot !== undefined && Date.now() - this.#readAt < FIGURES_MAX_AGE_MS
            ? this.#snapshot
            : undefined;
        const changed = kept === undefined ? "every" : await daysChangedSince(tx, kept);
        if (changed !== "every" && changed.length === 0) return { days: this.#days, snapshot };
        for (const setting of PLANNER) await queryText(tx, setting);
        if (changed === "every") return { days: await this.#compute(tx, undefined), snapshot };
        const fresh = await this.#compute(tx, changed);
        const days = new Map(this.#days);
        for (const day of changed) {
          const figures = fresh.get(day);
          if (figures === undefined) days.delete(day);
          else days.set(day, figures);
        }
        return { days, snapshot };
      },
      { isolationLevel: "repeatable read", accessMode: "read only" },
    );
    this.#days = days;
    this.#snapshot = snapshot;
    this.#readAt = startedAt;
    return days;
  }
}
