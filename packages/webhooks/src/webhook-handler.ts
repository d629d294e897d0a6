/**
 * One line to receive issuing pushes in any Node framework: verify, parse, deduplicate by
 * request_id, run `onEvent`, and answer so the service stops or retries. `handle` holds the
 * logic; `fetch`, `node` and `express` only adapt request and response types.
 */
import { isSignatureError } from "@merchantkit/core";
import { acknowledge, retryLater } from "./acknowledgement";
import { createIssuingEventConstructor, type IssuingWebhookEvent } from "./construct-issuing-event";
import type { DedupeStore } from "./dedupe-store";
import type { HeaderSource } from "./headers";
import { fetchRawBody, nodeRawBody, send, toResponse } from "./http-adapters";
import type { NodeRequestLike, NodeResponseLike } from "./node-http-shape";
import { isBinaryBody } from "./raw-body";
import { payloadRefused, signatureRefused, type WebhookResult } from "./refused-answer";
import type { IssuingWebhookSecrets } from "./verify-issuing-webhook";

export { WebhookBodyTooLargeError, type WebhookResult } from "./refused-answer";

export interface WebhookHandlerOptions extends IssuingWebhookSecrets {
  /** Runs once per event; throwing (or rejecting) makes the service deliver it again. */
  onEvent: (event: IssuingWebhookEvent) => void | Promise<void>;
  /** Skips events already handled; without one, every delivery runs onEvent. */
  dedupe?: DedupeStore | undefined;
  /**
   * Told about every rejected delivery (bad signature, bad payload, a body over the limit,
   * onEvent failure); the error's message says why.
   */
  onError?: ((error: unknown) => void) | undefined;
  /** Largest body accepted (default 1 MiB); a larger one is answered 413. */
  maxBodyBytes?: number | undefined;
}

export interface WebhookHandler {
  handle(input: { rawBody: unknown; headers: HeaderSource }): Promise<WebhookResult>;
  /** Fetch-style: Hono (`c.req.raw`), Next.js route handlers, workers. */
  fetch(request: Request): Promise<Response>;
  /** node:http `(req, res)`. */
  node(req: NodeRequestLike, res: NodeResponseLike): Promise<void>;
  /** Express middleware that reads the raw body itself (mount it before express.json()). */
  express(
    req: NodeRequestLike & { body?: unknown },
    res: NodeResponseLike,
    next: (error?: unknown) => void,
  ): void;
}

/** The answer to a push refused before onEvent: a bad signature, setup or payload. */
function refused(error: unknown): WebhookResult {
  return isSignatureError(error) ? signatureRefused(error) : payloadRefused(error);
}

export function createWebhookHandler(opts: WebhookHandlerOptions): WebhookHandler {
  const construct = createIssuingEventConstructor(opts);
  const maxBodyBytes = opts.maxBodyBytes ?? 1024 * 1024;
  const report = (error: unknown) => {
    try {
      opts.onError?.(error);
    } catch {
      // A failing error reporter must not change the answer to the service.
    }
  };

  async function handle(input: {
    rawBody: unknown;
    headers: HeaderSource;
  }): Promise<WebhookResult> {
    let event: IssuingWebhookEvent;
    try {
      event = await construct(input);
    } catch (error) {
      report(error);
      return refused(error);
    }
    const id = event.request_id;
    // Every path answers: a dedupe store that fails (its database down) is reported and the
    // push answered, never left open (the node adapter would reject with nothing written).
    let claim: Awaited<ReturnType<DedupeStore["claim"]>>;
    try {
      claim = opts.dedupe ? await opts.dedupe.claim(id) : "claimed";
    } catch (error) {
      report(error);
      return { status: 500, body: retryLater() };
    }
    if (claim === "completed")
      return { status: 200, body: acknowledge("duplicate, already processed") };
    if (claim === "in_flight") return { status: 409, body: retryLater("being processed, retry") };
    try {
      await opts.onEvent(event);
    } catch (error) {
      report(error);
      await settle(() => opts.dedupe?.release(id));
      return { status: 500, body: retryLater() };
    }
    // The event was handled: acknowledged even when recording that fails (reported), since a
    // retry would only find the id still in flight.
    await settle(() => opts.dedupe?.complete(id));
    return { status: 200, body: acknowledge() };
  }

  /** Runs a dedupe store's bookkeeping; its failure is reported, not thrown. */
  async function settle(step: () => void | Promise<void> | undefined): Promise<void> {
    try {
      await step();
    } catch (error) {
      report(error);
    }
  }

  async function node(
    req: NodeRequestLike,
    res: NodeResponseLike,
    preRead?: unknown,
  ): Promise<void> {
    let rawBody = preRead;
    if (rawBody === undefined) {
      const read = await nodeRawBody(req, maxBodyBytes, report);
      if (!(read instanceof Uint8Array)) {
        send(res, read);
        return;
      }
      rawBody = read;
    }
    send(res, await handle({ rawBody, headers: req.headers }));
  }

  return {
    handle,
    async fetch(request) {
      const body = await fetchRawBody(request, maxBodyBytes, report);
      return toResponse(
        body instanceof Uint8Array
          ? await handle({ rawBody: body, headers: request.headers })
          : body,
      );
    },
    node: (req, res) => node(req, res),
    express(req, res, next) {
      // express.raw() leaves a Buffer (other raw parsers may leave an ArrayBuffer); a JSON
      // parser that ran first leaves an object, which `handle` refuses with a message saying
      // to pass the raw body.
      const preRead =
        isBinaryBody(req.body) || typeof req.body === "string"
          ? req.body
          : req.body !== undefined && req.readableEnded
            ? req.body
            : undefined;
      node(req, res, preRead).catch(next);
    },
  };
}
