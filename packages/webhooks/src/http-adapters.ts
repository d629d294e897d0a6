/**
 * The node:http and fetch sides of the handlers (issuing pushes and result notifications): the
 * raw body read up to a limit, or the answer when it cannot be had, and the answer written back.
 */
import { SignatureError } from "@merchantkit/core";
import type { NodeRequestLike, NodeResponseLike } from "./node-http-shape";
import {
  signatureRefused,
  tooLarge,
  unreadable,
  WebhookBodyTooLargeError,
  type WebhookResult,
} from "./refused-answer";

const RESPONSE_HEADERS = { "content-type": "application/json;charset=UTF-8" };

// 413 closes the connection: the rest of the body is not worth reading on a kept-alive socket.
const TOO_LARGE_HEADERS = { ...RESPONSE_HEADERS, connection: "close" };

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

/** Writes the answer (a 413 closing the connection). */
export function send(res: NodeResponseLike, result: WebhookResult): void {
  res.writeHead(result.status, result.status === 413 ? TOO_LARGE_HEADERS : RESPONSE_HEADERS);
  res.end(JSON.stringify(result.body));
}

/** The answer as a fetch Response. */
export function toResponse(result: WebhookResult): Response {
  return new Response(JSON.stringify(result.body), {
    status: result.status,
    headers: result.status === 413 ? TOO_LARGE_HEADERS : RESPONSE_HEADERS,
  });
}

/**
 * A node request's raw body, read until it passes `max` bytes; or, told to `report`, the answer
 * when it cannot be had: over the limit 413, unreadable (the connection broke) 400.
 */
export async function nodeRawBody(
  req: NodeRequestLike,
  max: number,
  report: (error: unknown) => void,
): Promise<Uint8Array | WebhookResult> {
  try {
    return await readBody(req, max);
  } catch (error) {
    report(error);
    return error instanceof WebhookBodyTooLargeError ? tooLarge(max) : unreadable();
  }
}

/**
 * A fetch Request's raw body, or (told to `report`) the answer when it cannot be had. Every way
 * this fails is an answer, never a rejection: the fetch adapter's caller (a framework) would
 * answer a bare 500 with no respCode, and onError would never hear of it.
 */
export async function fetchRawBody(
  request: Request,
  max: number,
  report: (error: unknown) => void,
): Promise<Uint8Array | WebhookResult> {
  if (request.bodyUsed || request.body?.locked) {
    const error = bodyAlreadyRead();
    report(error);
    return signatureRefused(error);
  }
  // A declared length over the limit is refused unread; a chunked body, or a length that
  // lied, is read only until it passes the limit.
  const declared = Number(request.headers.get("content-length") ?? 0);
  let body: Uint8Array | undefined;
  try {
    body = declared > max ? undefined : await readStream(request, max);
  } catch (error) {
    report(error);
    return unreadable();
  }
  if (body === undefined) {
    report(new WebhookBodyTooLargeError(max));
    return tooLarge(max);
  }
  return body;
}
