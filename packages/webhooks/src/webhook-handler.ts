/**
 * One line to receive issuing pushes in any Node framework: verify, parse, deduplicate by
 * request_id, run `onEvent`, and answer so the service stops or retries. `handle` holds the
 * logic; `fetch`, `node` and `express` only adapt request and response types.
 */
import { isResponseValidationError, isSignatureError, SignatureError } from "@merchantkit/core";
import { acknowledge, retryLater, type WebhookAck } from "./acknowledgement";
import { createIssuingEventConstructor, type IssuingWebhookEvent } from "./construct-issuing-event";
import type { DedupeStore } from "./dedupe-store";
import type { HeaderSource } from "./headers";
import type { NodeRequestLike, NodeResponseLike } from "./node-http-shape";
import { isBinaryBody } from "./raw-body";
import type { IssuingWebhookSecrets } from "./verify-issuing-webhook";

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

export interface WebhookResult {
  status: number;
  body: WebhookAck;
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

const RESPONSE_HEADERS = { "content-type": "application/json;charset=UTF-8" };

/** A push whose body is over the handler's limit: answered 413 and not read further. */
export class WebhookBodyTooLargeError extends Error {
  override readonly name = "WebhookBodyTooLargeError";
  constructor(readonly limit: number) {
    super(`body is over the ${limit}-byte limit`);
  }
}

// 413 closes the connection: the rest of the body is not worth reading on a kept-alive socket.
const TOO_LARGE_HEADERS = { ...RESPONSE_HEADERS, connection: "close" };

function tooLarge(limit: number): WebhookResult {
  return { status: 413, body: retryLater(`body is over the ${limit}-byte limit`) };
}

// Why a payload was refused, for the service's log: the fields and rules, never the values.
function refusal(error: unknown): string {
  if (!isResponseValidationError(error)) return "payload does not match the contract";
  const reasons = error.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message));
  const text = `payload does not match the contract: ${reasons.join("; ")}`;
  return text.length > 500 ? `${text.slice(0, 499)}…` : text;
}

/** The answer to a push refused before onEvent: a bad signature, setup or payload. */
function refused(error: unknown): WebhookResult {
  if (isSignatureError(error)) {
    // Bytes that are no UTF-8 text are a malformed body, not a wrong secret: a 401 would
    // send the operator looking at the secret.
    if (error.reason === "not_utf8")
      return { status: 400, body: { respCode: "40000", respMsg: "body is not valid UTF-8" } };
    const status = error.reason === "parsed_body" || error.reason === "bad_secret" ? 500 : 401;
    return {
      status,
      body: {
        respCode: "40100",
        respMsg: error.reason === "parsed_body" ? error.message : "signature verification failed",
      },
    };
  }
  return { status: 400, body: { respCode: "40000", respMsg: refusal(error) } };
}

/** A body the adapter could not read (the connection broke): the service retries it. */
function unreadable(): WebhookResult {
  return { status: 400, body: retryLater("body could not be read") };
}

/**
 * A fetch Request whose body something read (or began reading) before the handler: the raw bytes
 * the signature covers are gone, as with a JSON parser that ran first in node, and answered the
 * same way (500 40100, parsed_body), so the service keeps retrying while the setup is fixed.
 */
function bodyAlreadyRead(): SignatureError {
  return new SignatureError(
    "parsed_body",
    "The webhook request's body was already read before the handler got it (e.g. `await request.json()` in a middleware), so the raw bytes the signature covers are gone: hand the Request over unread, or pass the raw body to handle() (`await request.text()` or `await request.arrayBuffer()`).",
  );
}

function readBody(req: NodeRequestLike, max: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    req.on("data", (chunk: Uint8Array) => {
      if (size > max) return; // answered already; node discards the rest
      size += chunk.length;
      if (size > max) {
        chunks.length = 0;
        // Not req.destroy(): that resets the connection before the 413 reaches the sender.
        reject(new WebhookBodyTooLargeError(max));
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      const body = new Uint8Array(size);
      let offset = 0;
      for (const chunk of chunks) {
        body.set(chunk, offset);
        offset += chunk.length;
      }
      resolve(body);
    });
    req.on("error", reject);
  });
}

/**
 * A fetch Request's body, read chunk by chunk; undefined, with the rest of the stream cancelled
 * unread, once it passes `max` bytes. Web streams only: this also runs on workers, Deno, Bun.
 */
async function readStream(request: Request, max: number): Promise<Uint8Array | undefined> {
  // No body: an empty one. (One already read is refused before this.)
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!(value instanceof Uint8Array)) {
      reader.cancel().catch(() => {});
      throw new TypeError("request body chunk is not a Uint8Array");
    }
    size += value.length;
    if (size > max) {
      // Not awaited: the 413 need not wait for the source to wind down.
      reader.cancel(new WebhookBodyTooLargeError(max)).catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return body;
}

function send(res: NodeResponseLike, result: WebhookResult): void {
  res.writeHead(result.status, result.status === 413 ? TOO_LARGE_HEADERS : RESPONSE_HEADERS);
  res.end(JSON.stringify(result.body));
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

  async function fetchResult(request: Request): Promise<WebhookResult> {
    // Every way this fails is an answer, never a rejection: the fetch adapter's caller (a
    // framework) would answer a bare 500 with no respCode, and onError would never hear of it.
    if (request.bodyUsed || request.body?.locked) {
      const error = bodyAlreadyRead();
      report(error);
      return refused(error);
    }
    // A declared length over the limit is refused unread; a chunked body, or a length that
    // lied, is read only until it passes the limit.
    const declared = Number(request.headers.get("content-length") ?? 0);
    let body: Uint8Array | undefined;
    try {
      body = declared > maxBodyBytes ? undefined : await readStream(request, maxBodyBytes);
    } catch (error) {
      report(error);
      return unreadable();
    }
    if (body === undefined) {
      report(new WebhookBodyTooLargeError(maxBodyBytes));
      return tooLarge(maxBodyBytes);
    }
    return handle({ rawBody: body, headers: request.headers });
  }

  async function node(
    req: NodeRequestLike,
    res: NodeResponseLike,
    preRead?: unknown,
  ): Promise<void> {
    let rawBody = preRead;
    if (rawBody === undefined) {
      try {
        rawBody = await readBody(req, maxBodyBytes);
      } catch (error) {
        report(error);
        send(
          res,
          error instanceof WebhookBodyTooLargeError ? tooLarge(maxBodyBytes) : unreadable(),
        );
        return;
      }
    }
    send(res, await handle({ rawBody, headers: req.headers }));
  }

  return {
    handle,
    async fetch(request) {
      const result = await fetchResult(request);
      return new Response(JSON.stringify(result.body), {
        status: result.status,
        headers: result.status === 413 ? TOO_LARGE_HEADERS : RESPONSE_HEADERS,
      });
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
