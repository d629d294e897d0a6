// What the store needs from the driver beyond drizzle: one connection held for a while.
import type { DatabaseKind, Db } from "./database";

/** Runs one SQL text with positional parameters on a held connection; rows as objects. */
export type ConnectionQuery = (
  text: string,
  params: readonly unknown[],
) => Promise<Record<string, unknown>[]>;

export interface Backend {
  kind: DatabaseKind;
  /**
   * Runs fn on one connection kept for its whole duration, for session-level advisory locks.
   * postgres.js reserves a pool connection; PGlite has only one, shared with everything else.
   */
  withConnection<T>(fn: (query: ConnectionQuery) => Promise<T>): Promise<T>;
  /**
   * Runs `COPY … FROM STDIN` (postgres.js) or `COPY … FROM '/dev/blob'` (PGlite) with text the
   * chunks give, in COPY's text format. PGlite gathers the chunks in memory first.
   */
  copyFrom(copyStatement: string, chunks: Iterable<string> | AsyncIterable<string>): Promise<void>;
  /** Applies the drizzle-kit migrations of a folder with the driver's migrator. */
  migrate(migrationsFolder: string): Promise<void>;
  /** Stream locks held by this process on this database (PGlite's one session re-enters). */
  heldLocks: Set<string>;
}

// Keyed by the drizzle handle, so store functions can take the Db the caller already has.
const backends = new WeakMap<object, Backend>();

export function registerBackend(db: Db, backend: Backend): void {
  backends.set(db, backend);
}

export function backendOf(db: Db): Backend {
  const backend = backends.get(db);
  if (!backend)
    throw new TypeError(
      "this database was not opened with openDatabase() (pass the top-level db, not a transaction)",
    );
  return backend;
}
