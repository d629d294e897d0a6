/**
 * What the transport tells the outside world: hooks for request, response and retry events
 * (method, path, status, attempt, duration, idempotency key), and an optional logger. Every
 * event is redacted before it leaves; bodies are included only when asked for.
 */
import type { Area } from "../transport/environment";

export interface RequestEvent {
  area: Area;
  method: "POST";
  path: string;
  url: string;
  attempt: number;
  idempotencyKey: string | undefined;
  headers: Record<string, string>;
  /** Redacted wire body; only with `includeBodies`. */
  body?: unknown;
}

export interface ResponseEvent extends RequestEvent {
  httpStatus: number | undefined;
  respCode: string | undefined;
  durationMs: number;
  requestId: string | undefined;
  /** Error name when the attempt failed (ConnectionError, ServerError...). */
  error: string | undefined;
  /** Redacted response body; only with `includeBodies`. */
  responseBody?: unknown;
}

export interface RetryEvent {
  area: Area;
  path: string;
  /** The attempt that failed (1-based). */
  attempt: number;
  delayMs: number;
  reason: string;
  idempotencyKey: string | undefined;
}

export interface TransportHooks {
  onRequest?: (event: RequestEvent) => void;
  onResponse?: (event: ResponseEvent) => void;
  onRetry?: (event: RetryEvent) => void;
}

/**
 * Where the transport logs, called as `logger.debug(message, fields)` for each request and
 * response and `logger.warn(message, fields)` for each retry (info and error are not used
 * today): the message is a fixed text ("merchantkit request", "merchantkit response",
 * "merchantkit retry"), the fields the redacted event. console and winston take this form as
 * they are. pino takes (fields, message) and, given a string first, drops the fields: hand it
 * an adapter, `{ debug: (m, f) => log.debug(f, m), warn: (m, f) => log.warn(f, m) }` (core
 * README, "Hooks and logging").
 */
export interface Logger {
  debug?(message: string, fields: Record<string, unknown>): void;
  info?(message: string, fields: Record<string, unknown>): void;
  warn?(message: string, fields: Record<string, unknown>): void;
  error?(message: string, fields: Record<string, unknown>): void;
}

/** Calls a hook without letting its failure break the request it observes. */
export function emit<E>(hook: ((event: E) => void) | undefined, event: E): void {
  if (!hook) return;
  try {
    ignoreRejection(hook(event));
  } catch {
    // An observer must never change the outcome of a payment call.
  }
}

/**
 * An observer typed `(event) => void` may still be async (a telemetry sender): its rejection
 * would be unhandled, which ends a Node process by default. It is dropped like a throw.
 */
function ignoreRejection(result: unknown): void {
  if (typeof (result as PromiseLike<unknown> | undefined)?.then === "function")
    (result as PromiseLike<unknown>).then(undefined, () => {});
}

export function log(
  logger: Logger | undefined,
  level: keyof Logger,
  message: string,
  fields: Record<string, unknown>,
): void {
  const fn = logger?.[level];
  if (!fn) return;
  try {
    ignoreRejection(fn.call(logger, message, fields));
  } catch {
    // Same as hooks: logging failures are not payment failures.
  }
}
