/**
 * One HTTP exchange, with a timeout over connect, headers and the whole body: the only I/O the
 * transport does. Two ways to send, as in stripe-node (NodeHttpClient and FetchHttpClient):
 *
 * - node:http / node:https (the default): on Node the fetch API runs every request and response
 *   through web streams, which costs about twice the client CPU per call (measured with
 *   bench/issuing-client.bench.ts; docs/assumptions.md has the figures). Keep-alive comes
 *   from Node's global agents.
 * - a `fetch` the caller passes (`ClientOptions.fetch`): for runtimes or proxies that need it,
 *   and for tests that intercept calls.
 *
 * Both give the same answer shape and the same errors: TimeoutError when the timeout fires,
 * ConnectionError (with the system code, e.g. ECONNRESET) for anything else that stops the
 * exchange; a caller's abort rejects with the signal's reason.
 */
import http from "node:http";
import https from "node:https";
import { ConnectionError, TimeoutError } from "../errors/local-errors";
import type { HttpAnswer } from "./read-response";

export interface HttpExchange {
  url: string;
  body: string;
  headers: Headers;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  /** The endpoint's path, for error messages. */
  path: string;
}

export type HttpSender = (exchange: HttpExchange) => Promise<HttpAnswer>;

export function httpSender(fetch: typeof globalThis.fetch | undefined): HttpSender {
  return fetch ? (exchange) => sendWithFetch(fetch, exchange) : sendWithNodeHttp;
}

function timeoutError(exchange: HttpExchange, cause?: unknown): TimeoutError {
  return new TimeoutError(
    `No complete response from ${exchange.path} within ${exchange.timeoutMs} ms`,
    {
      cause,
      path: exchange.path,
      timeoutMs: exchange.timeoutMs,
    },
  );
}

function sendWithNodeHttp(exchange: HttpExchange): Promise<HttpAnswer> {
  const { signal } = exchange;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<HttpAnswer>((resolve, reject) => {
    const target = new URL(exchange.url);
    const client = target.protocol === "https:" ? https : http;
    const headers: Record<string, string> = Object.fromEntries(exchange.headers);
    headers["content-length"] = String(Buffer.byteLength(exchange.body));
    let settled = false;
    const finish = (error: unknown, answer?: HttpAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      if (answer) resolve(answer);
      else reject(error);
    };
    const req = client.request(target, { method: "POST", headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", (error) => finish(toConnectionError(error, exchange.path)));
      res.on("aborted", () =>
        finish(toConnectionError(new Error("response aborted"), exchange.path)),
      );
      res.on("end", () => {
        const answerHeaders = new Headers();
        const raw = res.rawHeaders;
        for (let i = 0; i + 1 < raw.length; i += 2) {
          answerHeaders.append(raw[i] as string, raw[i + 1] as string);
        }
        finish(undefined, {
          status: res.statusCode ?? 0,
          headers: answerHeaders,
          // Decoded once, whole, so a multi-byte character split across chunks stays intact.
          text: Buffer.concat(chunks).toString("utf8"),
        });
      });
    });
    const timer = setTimeout(() => {
      const error = timeoutError(exchange);
      finish(error);
      req.destroy(error);
    }, exchange.timeoutMs);
    function onAbort() {
      finish(signal?.reason);
      req.destroy();
    }
    signal?.addEventListener("abort", onAbort, { once: true });
    req.on("error", (error) => finish(toConnectionError(error, exchange.path)));
    req.end(exchange.body);
  });
}

async function sendWithFetch(
  fetch: typeof globalThis.fetch,
  exchange: HttpExchange,
): Promise<HttpAnswer> {
  const { signal } = exchange;
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), exchange.timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal;
  try {
    const response = await fetch(exchange.url, {
      method: "POST",
      body: exchange.body,
      headers: exchange.headers,
      signal: combined,
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text };
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (timeout.signal.aborted) throw timeoutError(exchange, error);
    throw toConnectionError(error, exchange.path);
  } finally {
    clearTimeout(timer);
  }
}

/** Names the first system code found in the error or its causes (undici nests them). */
function toConnectionError(error: unknown, path: string): ConnectionError {
  let code: string | undefined;
  for (
    let e: unknown = error, depth = 0;
    e && depth < 4;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const c = (e as { code?: unknown }).code;
    if (typeof c === "string") {
      code = c;
      break;
    }
  }
  const reason = code ?? (error instanceof Error ? error.message : "network error");
  return new ConnectionError(`Connection to the service failed on ${path} (${reason})`, {
    cause: error,
    path,
    ...(code ? { code } : {}),
  });
}
