// postgres.js 3.4 can throw from its own write timer when the server drops a connection under
// it (restart, failover, pg_terminate_backend): `TypeError: Cannot read properties of null
// (reading 'write')` at connection.js nextWrite. Nothing of ours is on that stack, so nothing of
// ours can catch it, and Node ends the process. The driver has already closed that connection
// and rejected its queries by then (CONNECTION_CLOSED, or the server's 57P01), so the run in
// progress fails on its own with a database error and nothing more is lost by letting the
// process live: the worker reports the run, exits 1 (`sync`) or waits for the next tick
// (`schedule`, `webhooks`). Every other uncaught error still ends the process.

const DRIVER_FRAME = /[\\/]postgres[\\/](?:cjs[\\/])?src[\\/]connection\.js/;

// The driver's connection errors (`write CONNECTION_CLOSED host:port`): one that reaches the
// process unhandled (a promise inside the driver nobody awaits) means the same thing.
// A socket error nobody listened for (`read ECONNRESET`) does too: the driver removes its
// listeners from a socket when it sees it close, and a reset arriving after that is emitted on
// a socket with none. The worker's other sockets (fetch's, the webhook server's) listen to
// their own errors, so an unheard reset is the database's; and the queries that socket carried
// never hear of it, so they must be rejected by ending the pool (see onDriverSocketFault).
const CONNECTION_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECTION_ENDED",
  "CONNECT_TIMEOUT",
]);
const SOCKET_CODES = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED", "ETIMEDOUT"]);
// The server's own word that it ended the session (57P01 admin shutdown, 57P02 crash shutdown,
// 57P03 cannot connect now), when it reaches the process through a driver promise nobody awaits.
const SERVER_ENDED = /^57P0[123]$/;

/** True for the driver's own error from a socket the server closed. */
export function isDriverSocketFault(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, syscall } = error as { code?: unknown; syscall?: unknown };
  if (CONNECTION_CODES.has(code as string)) return true;
  if (SOCKET_CODES.has(code as string) && (syscall === "read" || syscall === "write")) return true;
  if (error.name === "PostgresError" && SERVER_ENDED.test(String(code))) return true;
  return (
    error instanceof TypeError &&
    /reading '(?:write|end|destroy)'/.test(error.message) &&
    DRIVER_FRAME.test(error.stack ?? "")
  );
}

/**
 * True when `error` or an error it wraps is one (drizzle wraps the driver's error in its
 * "Failed query" error): a query the dropped connection carried fails so.
 */
export function causedByDriverSocketFault(error: unknown): boolean {
  // Bounded: a chain of causes that loops back on itself would never end.
  for (let e = error, depth = 0; e instanceof Error && depth < 10; e = e.cause, depth++)
    if (isDriverSocketFault(e)) return true;
  return false;
}

type Listener = () => void;
const listeners = new Set<Listener>();

/**
 * Runs `listener` on each driver socket fault the process reports; answers the unsubscribe.
 * Every open Postgres database listens: it closes its pool (rejecting queries the fault left
 * waiting forever) and says it is lost, so its owner opens a new one.
 */
export function onDriverSocketFault(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Called by the process's uncaughtException handler for an error isDriverSocketFault accepts. */
export function reportDriverSocketFault(): void {
  for (const listener of listeners) listener();
}
