// Session-level advisory locks on a held connection, and their bounded release.
import type { Backend, ConnectionQuery } from "./backend";
import { reportDriverSocketFault } from "./driver-socket-fault";

/** How long an unlock may take before its connection is taken for lost. */
const UNLOCK_MS = 10_000;

/**
 * Releases the lock `key` held on `query`'s connection. A failure is let go: if the connection
 * broke, the server already dropped the lock with the session, and the guarded work's outcome
 * matters more. Past a bound the connection is taken for lost like any driver socket fault (the
 * pools are ended and reopened), so no run waits forever on an unlock the driver never answers.
 */
export async function unlock(query: ConnectionQuery, key: string, ms = UNLOCK_MS): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ms);
  });
  const released = query("select pg_advisory_unlock($1::bigint)", [key]).catch(() => "failed");
  const outcome = await Promise.race([released, timedOut]);
  clearTimeout(timer);
  if (outcome === "timeout") reportDriverSocketFault();
}

/**
 * Runs fn while holding the session lock `key` on a connection of its own, waiting for the lock
 * as long as another session holds it (pg_advisory_lock).
 */
export function withSessionLock<T>(
  backend: Backend,
  key: string,
  fn: (query: ConnectionQuery) => Promise<T>,
): Promise<T> {
  return backend.withConnection(async (query) => {
    await query("select pg_advisory_lock($1::bigint)", [key]);
    try {
      return await fn(query);
    } finally {
      await unlock(query, key);
    }
  });
}
