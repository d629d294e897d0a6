/**
 * Payout and profit-share result notifications received the way `createWebhookHandler` receives
 * issuing pushes: read the raw body up to a limit, verify its `sign` and decode it, run
 * `onNotification`, and answer so the service stops or retries. No dedupe store: storing a
 * notification by its payoutId is idempotent, so a copy delivered twice is simply handled twice.
 */
import { acknowledge, retryLater } from "./acknowledgement";
import { fetchRawBody, nodeRawBody, send, toResponse } from "./http-adapters";
import type { NodeRequestLike, NodeResponseLike } from "./node-http-shape";
import type { NotificationInput } from "./notifications";
import { answerRefusedNotification, type WebhookResult } from "./refused-answer";

export interface NotificationHandlerOptions<T> {
  /** `constructPayoutResultNotification` or `constructProfitShareResultNotification`. */
  construct: (input: NotificationInput) => Promise<T>;
  /** The merchant secret key that signs the notifications. */
  secretKey: string;
  /** Runs once per delivery; throwing (or rejecting) makes the service deliver it again. */
  onNotification: (notification: T) => void | Promise<void>;
  /**
   * Told about every rejected delivery (bad sign, bad payload, a body over the limit,
   * onNotification failure); the error's message says why.
   */
  onError?: ((error: unknown) => void) | undefined;
  /** Largest body accepted (default 1 MiB); a larger one is answered 413. */
  maxBodyBytes?: number | undefined;
}

export interface NotificationHandler {
  handle(input: { rawBody: unknown }): Promise<WebhookResult>;
  /** Fetch-style: Hono (`c.req.raw`), Next.js route handlers, workers. */
  fetch(request: Request): Promise<Response>;
  /** node:http `(req, res)`. */
  node(req: NodeRequestLike, res: NodeResponseLike): Promise<void>;
}

export function createNotificationHandler<T>(
  opts: NotificationHandlerOptions<T>,
): NotificationHandler {
  const maxBodyBytes = opts.maxBodyBytes ?? 1024 * 1024;
  const report = (error: unknown) => {
    try {
      opts.onError?.(error);
    } catch {
      // A failing error reporter must not change the answer to the service.
    }
  };

  async function handle({ rawBody }: { rawBody: unknown }): Promise<WebhookResult> {
    let notification: T;
    try {
      notification = await opts.construct({ rawBody, secretKey: opts.secretKey });
    } catch (error) {
      report(error);
      return answerRefusedNotification(error);
    }
    try {
      await opts.onNotification(notification);
    } catch (error) {
      report(error);
      return { status: 500, body: retryLater() };
    }
    return { status: 200, body: acknowledge() };
  }

  return {
    handle,
    async fetch(request) {
      const body = await fetchRawBody(request, maxBodyBytes, report);
      return toResponse(body instanceof Uint8Array ? await handle({ rawBody: body }) : body);
    },
    async node(req, res) {
      const body = await nodeRawBody(req, maxBodyBytes, report);
      send(res, body instanceof Uint8Array ? await handle({ rawBody: body }) : body);
    },
  };
}
