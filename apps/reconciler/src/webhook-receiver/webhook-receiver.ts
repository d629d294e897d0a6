// `reconciler webhooks`: a node:http server for the service's issuing pushes, verified and
// deduplicated by @merchantkit/webhooks with the Postgres dedupe store, stored like the sync.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createWebhookHandler, type DedupeStore } from "@merchantkit/webhooks";
import type { Db } from "../db/database";
import { PostgresDedupeStore } from "../store/dedupe-store";
import { errorText } from "../store/error-text";
import { addCounts, emptyCounts, type UpsertCounts } from "../store/upsert-batch";
import { logEvent } from "../sync/log-event";
import { storeWebhookEvent } from "./store-event";

export interface WebhookReceiverOptions {
  /**
   * The database, or a function answering the current one per push (the webhooks command
   * passes ReopeningDatabase's, so a database the server dropped is reopened for the next push).
   */
  db: Db | (() => Promise<Db>);
  /** The issuing webhook secret (Base64 text, from the merchant portal). */
  secret: string;
  /** 0 picks a free port. */
  port: number;
  host?: string | undefined;
  log: (line: string) => void;
  /**
   * A claim older than this may be taken over, and no push's storing may take longer (default:
   * the store's 10 s, below the service's 15 s between retries).
   */
  takeoverAfterMs?: number | undefined;
}

export interface WebhookReceiver {
  /** http://host:port; pushes go to any path (e.g. /webhooks/issuing) with POST. */
  url: string;
  /** Events handled (stored) so far, and what their upserts did. */
  stats(): { events: number; counts: UpsertCounts; rejected: number };
  /** Stops accepting connections and waits for the requests in progress. */
  close(): Promise<void>;
}

/** Starts the receiver; GET /healthz answers 200 for probes. */
export async function startWebhookReceiver(opts: WebhookReceiverOptions): Promise<WebhookReceiver> {
  const currentDb = typeof opts.db === "function" ? opts.db : async () => opts.db as Db;
  const stores = new WeakMap<Db, PostgresDedupeStore>();
  const storeOf = (db: Db) => {
    let store = stores.get(db);
    if (!store) {
      store = new PostgresDedupeStore(db, { takeoverAfterMs: opts.takeoverAfterMs });
      stores.set(db, store);
    }
    return store;
  };
  // The handler's dedupe store, on whichever database is current for each call.
  const dedupe: DedupeStore = {
    claim: async (id) => storeOf(await currentDb()).claim(id),
    complete: async (id) => storeOf(await currentDb()).complete(id),
    release: async (id) => storeOf(await currentDb()).release(id),
  };
  let events = 0;
  let rejected = 0;
  let counts = emptyCounts();
  const handler = createWebhookHandler({
    secret: opts.secret,
    dedupe,
    async onEvent(event) {
      const db = await currentDb();
      const result = await storeWebhookEvent(db, storeOf(db), event);
      events++;
      counts = addCounts(counts, result);
      logEvent(opts, "info", "webhook stored", {
        requestId: event.request_id,
        eventType: event.event_type,
        ...result,
      });
    },
    onError(error) {
      rejected++;
      // The reason (masked): the message, or for an error wrapping another (a failed query) its
      // first line and the cause, which says what failed; and the kind of error that carried it.
      logEvent(opts, "warn", "webhook rejected", {
        reason: errorText(error instanceof Error && !error.cause ? error.message : error),
        kind: error instanceof Error ? error.name : typeof error,
      });
    },
  });
  const server: Server = createServer((req, res) => {
    // A probe may add a query string (a cache buster): the path alone decides.
    if (req.method === "GET" && req.url?.split("?", 1)[0] === "/healthz") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"ok":true}');
      return;
    }
    if (req.method !== "POST") {
      res.writeHead(405, { allow: "POST" });
      res.end();
      return;
    }
    handler.node(req, res).catch((error: unknown) => {
      logEvent(opts, "error", "webhook handler failed", { error: errorText(error) });
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    stats: () => ({ events, counts, rejected }),
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}
