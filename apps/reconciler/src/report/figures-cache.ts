// Figures computed from the finance data, kept while that data is unchanged. The console's
// report page reads the statement, the currency bridge and the fees, which scan every record
// (seconds over 100,000 card transactions on PGlite); they change only when a finance table is
// written, which advances finance_data_version (finance-version.ts).
import type { Db } from "../db/database";
import { financeQuiet, financeVersion } from "./finance-version";

/** Keys kept at most (one per day a page asked for, and the whole): old ones are dropped. */
const MAX_KEYS = 64;

export class FiguresCache<T> {
  readonly #entries = new Map<string, { version: string; value: T }>();

  /**
   * The figures under `key`: the kept ones when the version is the one they were computed at,
   * else `compute()`'s. New figures are kept only when they are of one version: no writer was
   * uncommitted when the version was read, and the version did not move while they were
   * computed (each of compute's statements may see another commit; unchanged, they saw one).
   */
  async read(db: Db, key: string, compute: () => Promise<T>): Promise<T> {
    const version = await financeVersion(db);
    const kept = this.#entries.get(key);
    if (kept?.version === version) return kept.value;
    const quiet = await financeQuiet(db);
    const value = await compute();
    this.#entries.delete(key);
    if (quiet && (await financeVersion(db)) === version) {
      if (this.#entries.size >= MAX_KEYS) this.#entries.clear();
      this.#entries.set(key, { version, value });
    }
    return value;
  }
}
