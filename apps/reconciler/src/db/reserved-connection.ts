// One postgres.js pool connection held for a while (session-level advisory locks), whose queries
// fail at once after the server dropped it. postgres.js 3.4 never answers a query sent on a
// reserved connection whose socket closed while it sat idle: it writes the query to the closed
// socket from a timer (the TypeError of driver-socket-fault.ts) and the query waits forever
// (an unlock after a server restart would hang the worker). Released, such a connection is put
// back as open and hangs the pool's next query on it the same way, so it is left to the pool,
// which reconnects it when needed.
import type postgres from "postgres";
import type { ConnectionQuery } from "./backend";

/** The pool's connection object as a query's `onexecute` option receives it. */
interface PoolConnection {
  onclose?: ((error: Error) => void) | null;
}

/** Runs fn with a query function on one reserved connection of `client`, then releases it. */
export async function withReservedConnection<T>(
  client: postgres.Sql,
  fn: (query: ConnectionQuery) => Promise<T>,
): Promise<T> {
  const reserved = await client.reserve();
  let connection: PoolConnection | undefined;
  let dropped: Error | undefined;
  // The pool calls its connection's `onclose` when the socket closes (sql.begin() watches its
  // connection the same way); a query's `onexecute` is handed the connection as it is sent
  // (postgres.js internals, like begin's; a query without parameters, which is sent at once).
  const watch = (c: PoolConnection) => {
    connection = c;
    c.onclose = (error) => {
      dropped = error;
    };
    return true;
  };
  await reserved.unsafe("select 1", [], { onexecute: watch } as postgres.UnsafeQueryOptions);
  try {
    return await fn(async (text, params) => {
      if (dropped) throw dropped;
      return [...(await reserved.unsafe(text, params as postgres.ParameterOrJSON<never>[]))];
    });
  } finally {
    if (connection) connection.onclose = null;
    if (!dropped) reserved.release();
  }
}
