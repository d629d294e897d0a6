// One runner per stream across processes: a Postgres advisory lock held while the stream runs.
import { advisoryKey } from "../db/advisory-key";
import { backendOf } from "../db/backend";
import type { Db } from "../db/database";
import { reportDriverSocketFault } from "../db/driver-socket-fault";

/** How long an unlock may take before its connection is taken for lost. */
const UNLOCK_MS = 10_000;

async function unlockWithin(unlock: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ms);
  });
  const outcome = await Promise.race([unlock.catch(() => "failed"), timedOut]);
  clearTimeout(timer);
  if (outcome === "timeout") reportDriverSocketFault();
}

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
        // If the connection broke, the server already dropped the lock with the session; fn's
        // own outcome matters more than this failure. A query on a reserved connection the
        // server dropped can be left waiting forever by the driver (its queue is never run
        // again): past a bound, the connection is taken for lost like any driver socket fault
        // (the pool is ended and reopened), so the run ends instead of hanging.
        await unlockWithin(query("select pg_advisory_unlock($1::bigint)", [key]), UNLOCK_MS);
      }
    });
  } finally {
    backend.heldLocks.delete(stream);
  }
}
