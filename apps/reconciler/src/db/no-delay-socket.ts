// The sockets of the Postgres server connections, with TCP_NODELAY. postgres.js leaves Node's
// default (Nagle's algorithm on), and then a query written right after a COPY waits for the
// server's delayed acknowledgement: 40 ms on Linux. libpq and node-postgres set it too.
import { Socket } from "node:net";

/** What postgres.js hands a custom socket factory (its parsed options). */
interface Target {
  host: string[];
  port: number[];
  path?: string | false;
}

/**
 * postgres.js's `socket` option: a factory making each connection's socket as postgres.js
 * makes its own (the unix socket path when one is set, else the hosts in turn, with the host
 * kept on the socket for the TLS check's server name), handed over while still connecting:
 * what postgres.js writes first is sent once it is connected, and its connect timeout runs.
 */
export function noDelaySocket(): (target: Target) => Socket {
  let next = 0;
  return (target) => {
    const socket = new Socket() as Socket & { host?: string; port?: number };
    socket.setNoDelay(true);
    if (target.path) return socket.connect(target.path);
    const i = next++ % target.port.length;
    const host = target.host[i] ?? target.host[0] ?? "localhost";
    const port = target.port[i] ?? target.port[0] ?? 5432;
    socket.host = host;
    socket.port = port;
    return socket.connect(port, host);
  };
}
