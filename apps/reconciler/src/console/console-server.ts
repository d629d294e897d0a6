// Serves the console's Hono app (console-app.ts) over node:http and stops it gracefully.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import type { EntityConfig } from "../config/entity-rule";
import type { SecondApprovalLimits } from "../config/second-approval";
import type { Db } from "../db/database";
import { reportFiguresCache } from "../report/report-data";
import { createConsoleApp } from "./console-app";

interface ConsoleOptions {
  /** Actions, sign-ins and sessions (the primary). */
  db: Db;
  /** The read pages (a hot standby); unset, `db`. */
  readDb?: Db | undefined;
  /** Above these amounts an accept or write-off waits for a second approver (unset: never). */
  secondApproval?: SecondApprovalLimits | undefined;
  /** The entities ?entity= may name (MERCHANT_NO, RECONCILER_ENTITIES), as the CLI's --entity. */
  entityConfig?: EntityConfig | undefined;
  host?: string;
  /**
   * Computes the report page's figures of every day before the console answers (seconds over a
   * large history), so the first load is as quick as the next ones.
   */
  warmFigures?: boolean | undefined;
  /** 0 picks a free port. */
  port?: number;
  /** Where errors and sign-ins go (never a password or a cookie; card numbers masked). */
  log?: (line: string) => void;
  /** Days sign-in attempts are kept past the throttle's window (90 when absent). */
  signInRetentionDays?: number | undefined;
}

export interface RunningConsole {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** Starts the console; resolves once it listens. */
export async function startConsole(opts: ConsoleOptions): Promise<RunningConsole> {
  const host = opts.host ?? "127.0.0.1";
  const figures = reportFiguresCache();
  if (opts.warmFigures) await figures.read(opts.readDb ?? opts.db);
  const app = createConsoleApp({
    figures,
    db: opts.db,
    readDb: opts.readDb,
    secondApproval: opts.secondApproval,
    entityConfig: opts.entityConfig,
    signInRetentionDays: opts.signInRetentionDays,
    host,
    log: opts.log ?? (() => {}),
  });
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 8790, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(":") ? `[${host}]` : host;
  return {
    server,
    url: `http://${shown}:${port}`,
    close: () => closeGracefully(server),
  };
}

/** How long a stopping console gives the requests in hand before it cuts their connections. */
const CLOSE_GRACE_MS = 15_000;

/**
 * Stops taking requests and lets those in hand finish: an accept waiting on a match run's lock
 * commits after the signal, and its answer must reach the browser (cut at once, the user sees
 * an empty reply for a saved action and may retry it). Idle
 * keep-alive connections are closed as they go idle; past CLOSE_GRACE_MS every one is cut.
 */
function closeGracefully(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
    server.close(() => {
      clearInterval(idle);
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}
