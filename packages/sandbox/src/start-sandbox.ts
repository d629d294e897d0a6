/**
 * Starts a sandbox on a port (a free one by default) with @hono/node-server and returns its
 * origin, a typed admin client, the current runtime and areas, and `close()`. Tests get one
 * instance per file (or per test) this way; the bin starts one from the shell.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import { createSandboxAdmin, type SandboxAdmin } from "./admin/sandbox-admin-client";
import type { Area, Runtime } from "./runtime/area";
import { createSandboxApp } from "./server/create-sandbox-app";
import type { SandboxHost } from "./server/sandbox-host";
import type { SandboxOptions } from "./server/sandbox-options";

export type StartSandboxOptions = SandboxOptions & {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Interface to listen on; 127.0.0.1 by default. */
  host?: string;
};

export interface RunningSandbox {
  /** The origin, e.g. http://127.0.0.1:54321 (areas are under their prefixes). */
  url: string;
  admin: SandboxAdmin;
  /** The current runtime (a new one after each reset). */
  runtime(): Runtime;
  areas(): Area[];
  /** The sandbox's state holder, for in-process inspection. */
  host: SandboxHost;
  close(): Promise<void>;
}

export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const { port = 0, host: hostname = "127.0.0.1", ...rest } = options;
  const sandbox = createSandboxApp(rest);
  const server = createAdaptorServer({ fetch: sandbox.app.fetch }) as Server;
  // The server must not be the side that closes an idle keep-alive connection just as a
  // request is written to it. undici keeps an idle connection for the server's advertised
  // timeout less 1 s, and in one event loop (a test running the sandbox in process) a
  // synchronous stretch of work (PGlite matching) can outlast both timers: the client's request
  // then goes out on a connection whose server-side timer fires next (ECONNRESET, seen at 10 s
  // on a loaded CI machine). Two minutes is longer than any such stretch.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, hostname, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${shownHost}:${address.port}`;
  // Links the sandbox hands out (voucherUrl) point at where it actually listens.
  sandbox.host.config.publicOrigin ??= url;
  let closed: Promise<void> | undefined;
  return {
    url,
    admin: createSandboxAdmin(url),
    runtime: sandbox.runtime,
    areas: sandbox.areas,
    host: sandbox.host,
    close() {
      closed ??= new Promise<void>((resolve, reject) => {
        sandbox.close();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
