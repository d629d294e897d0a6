// One runner per stream across processes: a Postgres advisory lock held while the stream runs.
import { advisoryKey } from "../db/advisory-key";
import { backendOf } from "../db/backend";
import type { Db } from "../db/database";
import { unlock } from "../db/session-lock";

/** What withStreamLock answers when another runner holds the stream. */
export const STREAM_BUSY = "busy";

/**
 * Runs fn while holding the stream's lock and returns its result, or returns "busy" at once,
 * without running fn, when another process (or another call in this one) holds it.
 *
 * The lock is pg_try_advisory_lock on a key derived from the stream name, taken on a connection
 * reserved for the whole run (fn's own queries use the pool as usual). It is session-level, so
 * a crashed worker's lock goes with its connection and no stale lock is ever left behind. On
 * PGlite (one session, whose advisory locks re-enter) an in-process set gives the same answer.
 * `db` must be the top-level database from openDatabase(), not a transaction.
 */
export async function withStreamLock<T>(
  db: Db,
  stream: string,
  fn: () => Promise<T>,
): Promise<T | typeof STREAM_BUSY> {
  const backend = backendOf(db);
  // Taken before the first await, so two calls in this process cannot both pass.
  if (backend.heldLocks.has(stream)) return STREAM_BUSY;
  backend.heldLocks.add(stream);
  const key = advisoryKey(`stream:${stream}`);
  try {
    return await backend.withConnection(async (query) => {
      const [row] = await query("select pg_try_advisory_lock($1::bigint) as locked", [key]);
      if (row?.locked !== true) return STREAM_BUSY;
      try {
        return await fn();
      } finally {
        await unlock(query, key);
      }
    });
  } finally {
    backend.heldLocks.delete(stream);
  }
}
