/**
 * The fetch ky calls for each attempt: the configured fetch, then the whole body read and turned
 * into a Reading (read-response.ts) before ky sees the answer. Reading inside the fetch keeps
 * the body under ky's timeout (which covers only the fetch call), parses each answer once, and
 * fails the attempt on a 2xx that is not JSON, so ky's retry treats a truncated transfer like a
 * dropped connection. Network failures leave here as core errors naming the idempotency key.
 *
 * A call reaches ky without a body; the wire text (written by core's stringifyJson, kept in
 * `call.wireText`) is sent from here, as `init.body`, which fetch sends from the string. A body
 * given to ky would be a stream in ky's Request, teed by ky for retries on every call, and
 * fetch, given only a Request with a body, pipes it through a proxy stream (the Fetch spec's
 * "create a proxy"), which costs event-loop turns before the bytes reach the socket: about
 * 200 µs a call on a 2-core machine, a fifth of a local round trip. Each of those streams is
 * also a native handle that only a full GC lets go of, which keeps what it holds alive through
 * the young generation's collections. A custom fetch (`ClientOptions.fetch`) gets a copy of
 * ky's Request carrying the text, so it sees the body whichever argument it reads; the built-in
 * fetch reads the body from `init` alone, so it is handed ky's Request as it is (a copy costs a
 * Request and a body stream per call: without it the payout bench's overhead over a bare ky
 * call fell from 197–262 to 141–184 µs, alternating runs).
 *
 * A signed call's text is known only once its sign is in: a Web Crypto digest, a thread-pool
 * job whose answer comes back through the event loop, and awaiting it before ky left the
 * process idle for that trip on every call (about 65 µs of a 500 µs local round trip). It is
 * awaited here instead, after ky has built its request.
 */
import type { ApiError } from "../errors/api-error";
import type { ConnectionError, ResponseValidationError } from "../errors/local-errors";
import type { RequestEvent } from "../observability/events";
import { connectionError, type SentRequest, timeoutError } from "./connection-errors";
import { credentialsOf } from "./credentials";
import type { Endpoint } from "./endpoint";
import { type HttpAnswer, type Reading, readResponse } from "./read-response";

/** One call as its attempts see it (ky's hooks get it through `options.context`). */
export interface Call extends SentRequest {
  endpoint: Endpoint;
  /** The tracing id the body carries (account requestId), for errors when the answer names none. */
  tracingId: string | undefined;
  /** A read, or a write carrying its idempotency key: repeating it cannot do anything twice. */
  safe: boolean;
  signal: AbortSignal | undefined;
  timeoutMs: number;
  /** The signed wire body, for events with includeBodies. */
  body: Record<string, unknown>;
  /** A signed call's wire text, ready once its sign is computed; undefined for other calls. */
  signedText: Promise<string> | undefined;
  /** The text on the wire (a signed call's is set by its first attempt). */
  wireText: string | undefined;
  /** 1-based number of the attempt under way (set before each attempt). */
  attempt: number;
  attemptStart: number;
  /** The request event of the attempt under way, when someone listens. */
  event: RequestEvent | undefined;
  /** The wait before the coming retry, for the retry event. */
  delayMs: number;
  /** What the throttle's refusal of a retry became: the call's end, never retried itself. */
  throttleRefusal: ConnectionError | undefined;
}

export type AttemptError = ApiError | ResponseValidationError | ConnectionError;

/**
 * Told about every attempt's outcome: the answer, or the error that ended it; `secrets`, the
 * credentials the attempt carried, to blank in what it shows of the answer as errors do.
 */
export type AttemptObserver = (
  call: Call,
  answer: HttpAnswer | undefined,
  error: AttemptError | undefined,
  respCode: string | undefined,
  secrets?: () => readonly string[],
) => void;

const readings = new WeakMap<Response, Reading>();

/** The Reading of an answer that came through attemptFetch. */
export function readingOf(response: Response): Reading | undefined {
  return readings.get(response);
}

export function takeReading(response: Response): Reading | undefined {
  const r = readings.get(response);
  readings.delete(response);
  return r;
}

export function attemptFetch(
  fetch: { fn: typeof globalThis.fetch; custom: boolean },
  call: Call,
  observe: AttemptObserver,
): typeof globalThis.fetch {
  return async (input, init) => {
    // Outside the try: a failure to sign is the caller's error, not the connection's.
    if (call.signedText) call.wireText ??= await call.signedText;
    if (fetch.custom) input = new Request(input, { body: call.wireText });
    let response: Response;
    let text: string;
    try {
      response = await fetch.fn(input, { ...init, body: call.wireText });
      text = await response.text();
    } catch (error) {
      if (call.signal?.aborted) throw call.signal.reason;
      // ky aborts the request's signal when its timeout fires (and rejects on its own).
      const timedOut = input instanceof Request && input.signal.aborted;
      const failure = timedOut
        ? timeoutError(call, call.timeoutMs, error)
        : connectionError(error, call, credentialsOf(input, call.body));
      observe(call, undefined, failure, undefined);
      throw failure;
    }
    const answer = { status: response.status, headers: response.headers, text };
    const secrets = () => credentialsOf(input, call.body);
    const reading = readResponse(answer, {
      endpoint: call.endpoint,
      idempotencyKey: call.idempotencyKey,
      requestId: call.tracingId,
      secrets,
    });
    observe(
      call,
      answer,
      reading.ok ? undefined : reading.error,
      reading.envelope?.respCode,
      secrets,
    );
    if (!reading.ok && response.ok && (reading.error as { malformed?: boolean }).malformed) {
      throw reading.error;
    }
    readings.set(response, reading);
    return response;
  };
}
