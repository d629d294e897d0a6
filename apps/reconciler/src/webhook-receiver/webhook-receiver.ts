// `reconciler webhooks`: a Hono app on node:http for the service's pushes. Issuing pushes (any path
// but a payout one) are verified and deduplicated by @merchantkit/webhooks with the Postgres
// dedupe store; payout result notifications (a path ending in /payout) are verified by their
// `sign`; both are stored like the sync.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer, type HttpBindings } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import {
  constructPayoutResultNotification,
  createNotificationHandler,
  createWebhookHandler,
  type DedupeStore,
  type PayoutResultNotification,
} from "@merchantkit/webhooks";
import { type Context, Hono } from "hono";
import { settingName } from "../config/load-config";
import type { Db } from "../db/database";
import { logEvent } from "../log-event";
import { DEFAULT_TAKEOVER_AFTER_MS, PostgresDedupeStore } from "../store/dedupe-store";
import { errorText } from "../store/error-text";
import { addCounts, emptyCounts, type UpsertCounts } from "../store/upsert-batch";
import { storeWebhookEvent } from "./store-event";
import { storePayoutNotification } from "./store-payout-notification";

/** Largest body accepted on either endpoint (the webhooks package's default). */
const MAX_BODY_BYTES = 1024 * 1024;

/** True for the payout notification endpoint: a path ending in /payout (query string aside). */
function isPayoutPath(url: string | undefined): boolean {
  return (url ?? "/").split("?", 1)[0]?.endsWith("/payout") === true;
}

interface WebhookReceiverOptions {
  /**
   * The database, or a function answering the current one per push (the webhooks command
   * passes ReopeningDatabase's, so a database the server dropped is reopened for the next push).
   */
  db: Db | (() => Promise<Db>);
  /** The issuing webhook secret (Base64 text, from the merchant portal). */
  secret: string;
  /**
   * The payout area's merchant secret key (PAYOUT_SECRET_KEY), which signs payout result
   * notifications. Without it the payout path answers 404 and logs why; issuing is unaffected.
   */
  payoutSecretKey?: string | undefined;
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
  /**
   * http://host:port; pushes go with POST to a path ending in /payout (e.g. /webhooks/payout)
   * for payout result notifications, and to any other path (e.g. /webhooks/issuing) for issuing.
   */
  url: string;
  /**
   * Pushes handled (stored) so far, issuing events and payout notifications together, and what
   * their upserts did; `payoutNotifications` is the payout part of `events`.
   */
  stats(): {
    events: number;
    payoutNotifications: number;
    counts: UpsertCounts;
    rejected: number;
  };
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
  let payoutNotifications = 0;
  let rejected = 0;
  let counts = emptyCounts();
  const reject = (fields: Record<string, unknown>) => {
    rejected++;
    logEvent(opts, "warn", "webhook rejected", fields);
  };
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
      reject(rejectedFields(error));
    },
  });
  const payoutSecretKey = opts.payoutSecretKey || undefined;
  if (!payoutSecretKey)
    logEvent(opts, "info", "payout notifications off", {
      reason: `${settingName("payoutSecretKey")} is not set: a POST to a path ending in /payout answers 404`,
    });

  /**
   * Payout result notifications, answered as the webhooks package's handler answers an issuing
   * push: verified by their sign, stored, 200; refused (over the limit 413; not UTF-8, not JSON
   * or out of contract 400; a missing or wrong sign 401) or not stored (the database away, a lock
   * held past the timeout: 500, so the service retries), each a `webhook rejected` line.
   */
  const payoutHandler =
    payoutSecretKey === undefined
      ? undefined
      : createNotificationHandler({
          construct: constructPayoutResultNotification,
          secretKey: payoutSecretKey,
          maxBodyBytes: MAX_BODY_BYTES,
          onNotification: storePayout,
          onError(error) {
            reject({ endpoint: "payout", ...rejectedFields(error) });
          },
        });

  /** One verified payout result notification, stored (a failure is thrown: answered 500). */
  async function storePayout(notification: PayoutResultNotification): Promise<void> {
    const result = await storePayoutNotification(await currentDb(), notification, {
      timeoutMs: opts.takeoverAfterMs ?? DEFAULT_TAKEOVER_AFTER_MS,
    });
    events++;
    payoutNotifications++;
    counts = addCounts(counts, result.counts);
    const fields = {
      payoutId: notification.payoutId,
      requestId: notification.requestId,
      payoutStatus: notification.payoutStatus,
    };
    if (result.stored)
      logEvent(opts, "info", "payout notification stored", { ...fields, ...result.counts });
    else
      logEvent(opts, "warn", "payout notification not stored", {
        ...fields,
        reason: result.reason,
      });
  }

  /** The payout path without PAYOUT_SECRET_KEY: 404, its body unread, and a line saying why. */
  function payoutOff(c: Context): Response {
    reject({
      endpoint: "payout",
      reason: `payout notifications are off: ${settingName("payoutSecretKey")} is not set`,
      kind: "NotConfigured",
    });
    return c.json({ respCode: "40400", respMsg: "payout notifications are not configured" }, 404, {
      "content-type": "application/json;charset=UTF-8",
    });
  }

  const app = new Hono<{ Bindings: HttpBindings }>();
  // A probe may add a query string (a cache buster): the path alone decides.
  app.get("/healthz", (c) => c.body('{"ok":true}', 200, { "content-type": "application/json" }));
  app.post("*", async (c) => {
    const payout = isPayoutPath(c.req.path);
    if (payout && !payoutHandler) return payoutOff(c);
    // The handlers read the raw node request (the signature covers its exact bytes) and answer on it.
    const { incoming, outgoing } = c.env;
    try {
      await (payout && payoutHandler ? payoutHandler : handler).node(incoming, outgoing);
    } catch (error) {
      logEvent(opts, "error", "webhook handler failed", { error: errorText(error) });
      if (!outgoing.headersSent) outgoing.writeHead(500);
      outgoing.end();
    }
    return RESPONSE_ALREADY_SENT;
  });
  app.all("*", (c) => c.body(null, 405, { allow: "POST" }));
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
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
    stats: () => ({ events, payoutNotifications, counts, rejected }),
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}

/**
 * A refusal's log fields: the reason (masked) — the message, or for an error wrapping another (a
 * failed query) its first line and the cause, which says what failed — and the kind of error.
 */
function rejectedFields(error: unknown): { reason: string; kind: string } {
  return {
    reason: errorText(error instanceof Error && !error.cause ? error.message : error),
    kind: error instanceof Error ? error.name : typeof error,
  };
}
