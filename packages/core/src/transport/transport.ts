/**
 * The one request path every area client uses (stripe-node's RequestSender): validate the
 * params, fix the idempotency key once, sign, then hand the call to one ky instance, which owns
 * the attempts: its retry options (retry-policy.ts), its timeout, and its hooks (throttle and
 * credential headers before every attempt, request / response / retry events). Each attempt's
 * answer is read by attempt-fetch.ts; what ky cannot express, a business respCode inside HTTP
 * 200, is read-response.ts, and such an answer is never retried.
 */
import ky, { isHTTPError, isTimeoutError, type KyInstance } from "ky";
import * as v from "valibot";
import { RequestValidationError } from "../errors/local-errors";
import { toValidationIssues } from "../errors/valibot-issues";
import { parseJson } from "../json/parse-json";
import { stringifyJson } from "../json/stringify-json";
import { emit, type Logger, log, type TransportHooks } from "../observability/events";
import { redact, redactHeaders } from "../redaction/redact";
import { ApiPromise, type WithResponse } from "./api-promise";
import {
  type AttemptError,
  attemptFetch,
  type Call,
  readingOf,
  takeReading,
} from "./attempt-fetch";
import type { AuthStrategy } from "./auth";
import { abortError, throttleRefusal, timeoutError } from "./connection-errors";
import type { Endpoint, EndpointParams, EndpointResult } from "./endpoint";
import { type Area, type Environment, resolveBaseUrl } from "./environment";
import { milliseconds, nonNegativeInt, refuseUnusableIdempotencyKey } from "./option-checks";
import type { HttpAnswer } from "./read-response";
import {
  DEFAULT_RETRY,
  isRetryable,
  jitter,
  kyRetryOptions,
  type RetrySettings,
  waitHeader,
  waitMs,
} from "./retry-policy";

export interface TransportConfig {
  environment: Environment;
  auth: AuthStrategy;
  /** Filled into the body of endpoints that carry merchantNo when the caller leaves it out. */
  merchantNo?: string | undefined;
  /** Per attempt, covering connect, headers and body: 1 to 2147483647 ms. Default 30 s. */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt. Default 2; 0 means one attempt. */
  maxRetries?: number | undefined;
  retryDelay?: Partial<Omit<RetrySettings, "maxRetries">> | undefined;
  /**
   * The fetch ky sends with (a proxy-aware fetch, a test double); default the runtime's own.
   * It is called with ky's Request (its body is the exact text on the wire; for a signed call,
   * a copy of ky's Request with the signed body attached) and an init whose `body` is that same
   * text.
   */
  fetch?: typeof globalThis.fetch | undefined;
  /**
   * Awaited before every HTTP attempt, retries included, outside the attempt's timeout: a
   * rate limiter shared by several clients (the reconciler paces all its requests with one).
   */
  throttle?: (() => Promise<void>) | undefined;
  hooks?: TransportHooks | undefined;
  logger?: Logger | undefined;
  /** Put redacted request and response bodies into events and log lines. Default false. */
  includeBodies?: boolean | undefined;
  userAgent?: string | undefined;
  /** Clock for x-timestamp; tests move it. */
  now?: (() => number) | undefined;
}

/**
 * What every area client is built with besides its credentials: where the service is and how
 * calls behave. One shape, so a merchant configures payout, issuing and account clients alike.
 */
export interface ClientOptions
  extends Pick<
    TransportConfig,
    | "timeoutMs"
    | "maxRetries"
    | "retryDelay"
    | "hooks"
    | "logger"
    | "includeBodies"
    | "fetch"
    | "throttle"
    | "userAgent"
  > {
  /** `"sandbox"`, `"production"`, `{ origin }` (the merchantkit sandbox, a proxy) or base URLs per area. */
  environment: Environment;
}

/** Per-call options, the same shape in every area client. */
export interface RequestOptions {
  /** Per attempt, 1 to 2147483647 ms; anything else is refused before sending. */
  timeoutMs?: number | undefined;
  maxRetries?: number | undefined;
  /**
   * Used for the endpoint's key field (clientRequestId, requestId, profitReference) when the
   * params leave it out; refused on a write whose endpoint has no key field. Named with the value
   * undefined (`error.idempotencyKey` of an error that carries none) it is refused too: leave
   * the option out to have a key generated.
   */
  idempotencyKey?: string | undefined;
  /** Sub-merchant / child customer (account area). */
  onBehalfOf?: string | undefined;
  signal?: AbortSignal | undefined;
}

const DEFAULT_TIMEOUT_MS = 30_000;

function generateKey(maxLength: number): string {
  const id = crypto.randomUUID();
  return id.length <= maxLength ? id : id.replaceAll("-", "").slice(0, maxLength);
}

/**
 * The retry settings: each field given, else its default. A field given as undefined keeps the
 * default (spread over the defaults it would turn the Retry-After cap off, or make the backoff
 * NaN, which setTimeout takes for no wait at all). A bad one is a ConfigurationError.
 */
function retrySettings(config: TransportConfig): RetrySettings {
  const given = config.retryDelay ?? {};
  const delay = (name: keyof NonNullable<TransportConfig["retryDelay"]>) =>
    milliseconds(given[name], DEFAULT_RETRY[name], `retryDelay.${name}`, 0, "client");
  return {
    maxRetries: nonNegativeInt(config.maxRetries, DEFAULT_RETRY.maxRetries, "maxRetries", "client"),
    baseDelayMs: delay("baseDelayMs"),
    maxDelayMs: delay("maxDelayMs"),
    maxRetryAfterMs: delay("maxRetryAfterMs"),
  };
}

/** What ky's hooks find in `options.context` (ky copies the context object, not the call). */
interface CallContext extends Record<string, unknown> {
  call: Call;
}

export class Transport {
  readonly #config: TransportConfig;
  readonly #retry: RetrySettings;
  readonly #timeoutMs: number;
  readonly #baseUrls = new Map<Area, string>();
  readonly #now: () => number;
  /** The fetch every attempt goes through, and whether the caller gave it. */
  readonly #fetch: { fn: typeof globalThis.fetch; custom: boolean };
  readonly #ky: KyInstance;
  /** A hook or a logger wants request and response events. */
  readonly #observed: boolean;

  constructor(config: TransportConfig) {
    this.#config = config;
    const { hooks, logger } = config;
    this.#observed = Boolean(hooks?.onRequest || hooks?.onResponse || logger);
    this.#retry = retrySettings(config);
    this.#timeoutMs = milliseconds(config.timeoutMs, DEFAULT_TIMEOUT_MS, "timeoutMs", 1, "client");
    this.#now = config.now ?? Date.now;
    this.#fetch = {
      fn: config.fetch ?? globalThis.fetch.bind(globalThis),
      custom: config.fetch !== undefined,
    };
    this.#ky = ky.create({
      fetch: this.#fetch.fn,
      timeout: this.#timeoutMs,
      // A redirected POST would be re-sent elsewhere (or turned into a GET): answer with the 3xx.
      redirect: "manual",
      retry: kyRetryOptions(this.#retry),
      // Lossless out: the body is written by core's stringifyJson and sent by attempt-fetch (ky
      // gets none, see there). Lossless in: attempt-fetch parses each answer once with core's
      // parseJson. ky's parseJson option is left unset: it only re-assigns response.json, which
      // throws where @hono/node-server has replaced the global Response with one whose json is
      // read-only (a sandbox in the same process).
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        "user-agent": config.userAgent ?? "merchantkit",
      },
      hooks: {
        beforeRequest: [
          (request, options, { retryCount }) =>
            this.#beforeAttempt(request, (options.context as CallContext).call, retryCount),
        ],
        beforeRetry: [
          ({ options, error, retryCount }) =>
            this.#beforeRetry((options.context as CallContext).call, error, retryCount),
        ],
      },
    });
  }

  /** Sends `params` to `endpoint`; resolves to the validated data, or rejects with a typed error. */
  request<E extends Endpoint>(
    endpoint: E,
    params: EndpointParams<E>,
    options: RequestOptions = {},
  ): ApiPromise<EndpointResult<E>> {
    return new ApiPromise(
      this.#execute(endpoint, params, options) as Promise<WithResponse<EndpointResult<E>>>,
    );
  }

  #baseUrl(area: Area): string {
    let url = this.#baseUrls.get(area);
    if (url === undefined) {
      url = resolveBaseUrl(this.#config.environment, area);
      this.#baseUrls.set(area, url);
    }
    return url;
  }

  /** Caller params plus merchantNo, onBehalfOf and the idempotency key, before validation. */
  #prepare(
    endpoint: Endpoint,
    params: unknown,
    options: RequestOptions,
  ): { input: Record<string, unknown>; key: string | undefined } {
    if (typeof params !== "object" || params === null || Array.isArray(params)) {
      throw new RequestValidationError([{ path: "", message: "params must be an object" }], {
        path: endpoint.path,
      });
    }
    // `{ idempotencyKey: error.idempotencyKey }` after an error that carries no key would
    // otherwise send the write under a new key: refused, like two different keys; a blank
    // key too.
    refuseUnusableIdempotencyKey(options, endpoint.path);
    const input: Record<string, unknown> = { ...(params as Record<string, unknown>) };
    if (
      endpoint.merchantNo &&
      input.merchantNo === undefined &&
      this.#config.merchantNo !== undefined
    ) {
      input.merchantNo = this.#config.merchantNo;
    }
    if (options.onBehalfOf !== undefined) {
      if (!endpoint.onBehalfOf) {
        throw new RequestValidationError(
          [{ path: "onBehalfOf", message: "is not supported by this endpoint" }],
          { path: endpoint.path },
        );
      }
      input.onBehalfOf = options.onBehalfOf;
    }
    const field = endpoint.idempotencyKey?.field;
    if (field === undefined) {
      // A write without a key field would go out unkeyed, never retried as a keyed write is:
      // refused rather than dropped. A read needs no key (transfers.create passes the
      // remittance's options to its beneficiary lookup).
      if (options.idempotencyKey !== undefined && endpoint.kind === "write") {
        throw new RequestValidationError(
          [
            {
              path: "idempotencyKey",
              message: "is not supported by this endpoint, which takes no idempotency key",
            },
          ],
          { path: endpoint.path },
        );
      }
      return { input, key: undefined };
    }
    // `{ clientRequestId: saved.key }` with the key lost: refused like an unset option.
    refuseUnusableIdempotencyKey(input, endpoint.path, field);
    const given = input[field];
    if (
      given !== undefined &&
      options.idempotencyKey !== undefined &&
      given !== options.idempotencyKey
    ) {
      throw new RequestValidationError(
        [
          {
            path: field,
            message: "differs from options.idempotencyKey; give the key in one place",
          },
        ],
        { path: endpoint.path },
      );
    }
    // Fixed here, before the first attempt, so every retry repeats the same key.
    const key =
      given ?? options.idempotencyKey ?? generateKey(endpoint.idempotencyKey?.maxLength ?? 64);
    input[field] = key;
    return { input, key: typeof key === "string" ? key : String(key) };
  }

  async #execute(
    endpoint: Endpoint,
    params: unknown,
    options: RequestOptions,
  ): Promise<WithResponse<unknown>> {
    if (this.#config.auth.kind !== endpoint.auth) {
      throw new RequestValidationError(
        [
          {
            path: "",
            message: `needs ${endpoint.auth} authentication; this client has ${this.#config.auth.kind}`,
          },
        ],
        { path: endpoint.path },
      );
    }
    // An aborted call sends nothing (ky leaves the signal to the fetch, which a custom one may ignore).
    if (options.signal?.aborted) throw options.signal.reason;
    const maxRetries = nonNegativeInt(options.maxRetries, this.#retry.maxRetries, "maxRetries");
    const timeoutMs = milliseconds(options.timeoutMs, this.#timeoutMs, "timeoutMs", 1);
    const { input, key } = this.#prepare(endpoint, params, options);
    const parsed = endpoint.parseRequest?.(input) ?? v.safeParse(endpoint.request, input);
    if (!parsed.success)
      throw new RequestValidationError(toValidationIssues(parsed.issues), { path: endpoint.path });
    const body = { ...(parsed.output as Record<string, unknown>) };
    // Not awaited here: attempt-fetch awaits it, so the digest runs while ky builds the request.
    const signedText = this.#config.auth
      .signBody?.(body, endpoint.unsignedFields ?? [])
      .then(() => stringifyJson(body));
    // Handled where it is awaited; this keeps a failure before the first attempt (an aborted
    // signal, a throttle that rejects) from also surfacing as an unhandled rejection.
    signedText?.catch(() => {});

    const call: Call = {
      endpoint,
      path: endpoint.path,
      idempotencyKey: key,
      tracingId: typeof body.requestId === "string" ? body.requestId : undefined,
      safe: endpoint.kind === "read" || key !== undefined,
      signal: options.signal,
      timeoutMs,
      body,
      signedText,
      // A signed call's text is known once its sign is in (attempt-fetch awaits it).
      wireText: signedText ? undefined : stringifyJson(body),
      attempt: 0,
      attemptStart: 0,
      event: undefined,
      delayMs: 0,
      throttleRefusal: undefined,
    };
    const started = performance.now();
    let response: Response;
    try {
      response = await this.#ky.post(this.#baseUrl(endpoint.area) + endpoint.path, {
        // No body: attempt-fetch sends the wire text (see there).
        timeout: timeoutMs,
        signal: options.signal,
        context: { call } satisfies CallContext,
        fetch: attemptFetch(this.#fetch, call, (c, answer, error, respCode, secrets) =>
          this.#observe(c, answer, error, respCode, secrets),
        ),
        retry: {
          limit: maxRetries,
          shouldRetry: ({ error }) => this.#shouldRetry(call, error),
          jitter: (delayMs) => {
            call.delayMs = jitter(delayMs);
            return call.delayMs;
          },
        },
      });
    } catch (error) {
      if (options.signal?.aborted) throw abortError(options.signal.reason, call);
      throw coreError(error, call);
    }
    const reading = takeReading(response);
    if (!reading) throw new TypeError("merchantkit: an answer bypassed attempt-fetch");
    if (!reading.ok) throw reading.error;
    return {
      data: reading.data,
      response: {
        httpStatus: response.status,
        headers: response.headers,
        attempts: call.attempt,
        durationMs: performance.now() - started,
        requestId: reading.requestId,
        idempotencyKey: key,
        respCode: reading.envelope.respCode,
        respMsg: reading.envelope.respMsg,
      },
    };
  }

  /** ky's beforeRequest: the throttle, fresh credential headers, the request event. */
  async #beforeAttempt(request: Request, call: Call, retryCount: number): Promise<void> {
    // Before the headers are set, so x-timestamp is not aged by the wait; outside the timeout.
    if (this.#config.throttle) {
      try {
        await this.#config.throttle();
      } catch (error) {
        // Before the first attempt nothing was sent: the throttle's error is the call's.
        if (call.attempt === 0) throw error;
        call.throttleRefusal = throttleRefusal(error, call);
        throw call.throttleRefusal;
      }
      call.signal?.throwIfAborted();
    }
    this.#config.auth.setHeaders?.(request.headers, this.#now);
    call.attempt = retryCount + 1;
    // Events are built only for someone listening: redacting headers and bodies per attempt
    // is work a page loop should not pay for nothing.
    if (this.#observed) {
      // An event with the body shows it signed: wait for the sign (attempt-fetch would anyway).
      if (this.#config.includeBodies) await call.signedText;
      call.event = {
        area: call.endpoint.area,
        method: "POST",
        path: call.path,
        url: request.url,
        attempt: call.attempt,
        idempotencyKey: call.idempotencyKey,
        headers: redactHeaders(request.headers),
        ...(this.#config.includeBodies ? { body: redact(call.body) } : {}),
      };
      emit(this.#config.hooks?.onRequest, call.event);
      log(this.#config.logger, "debug", "merchantkit request", { ...call.event });
    }
    call.attemptStart = performance.now();
  }

  /**
   * ky's shouldRetry: false when the failure may not be repeated (isRetryable) or the service
   * asks for a longer wait than maxRetryAfterMs; otherwise undefined, leaving the delay to ky
   * (Retry-After where the service sent one, else backoff with jitter). A Retry-After in the
   * past (a negative number, an old date) asks for no wait at all, which ky would take and
   * retry at once, and one that is no wait at all (`abc`, a proxy's page) ky would wait its
   * whole maxRetryAfter for: true makes ky back off with jitter instead, as if none had been
   * sent (stripe-node's reading), and the jitter records the delay for the retry event.
   */
  #shouldRetry(call: Call, error: unknown): boolean | undefined {
    if (call.signal?.aborted || error === call.throttleRefusal) return false;
    const answer = isHTTPError(error) ? error.response : undefined;
    const failure = { error: coreError(error, call), httpStatus: answer?.status };
    if (!isRetryable(failure, call.safe)) return false;
    const header = answer && waitHeader(answer.status, answer.headers);
    if (header === undefined) return undefined;
    const wait = waitMs(header, Date.now());
    if (wait === undefined || wait < 0) return true;
    if (wait > this.#retry.maxRetryAfterMs) return false;
    call.delayMs = wait;
    return undefined;
  }

  /** ky's beforeRetry (after the wait, before the next attempt): the retry event. */
  #beforeRetry(call: Call, error: unknown, retryCount: number): void {
    const retryEvent = {
      area: call.endpoint.area,
      path: call.path,
      attempt: retryCount,
      delayMs: call.delayMs,
      reason: (coreError(error, call) as Error).name,
      idempotencyKey: call.idempotencyKey,
    };
    emit(this.#config.hooks?.onRetry, retryEvent);
    log(this.#config.logger, "warn", "merchantkit retry", { ...retryEvent });
  }

  #observe(
    call: Call,
    answer: HttpAnswer | undefined,
    error: AttemptError | undefined,
    respCode: string | undefined,
    secrets: (() => readonly string[]) | undefined,
  ): void {
    const event = call.event;
    if (!event) return;
    const responseEvent = {
      ...event,
      httpStatus: answer?.status,
      respCode,
      durationMs: performance.now() - call.attemptStart,
      requestId: answer?.headers.get("x-request-id") ?? undefined,
      error: error?.name,
      // Blanking the call's credentials too, as its error does: an answer can echo the key.
      ...(this.#config.includeBodies && answer
        ? { responseBody: redactBody(answer.text, secrets?.()) }
        : {}),
    };
    emit(this.#config.hooks?.onResponse, responseEvent);
    log(this.#config.logger, "debug", "merchantkit response", { ...responseEvent });
  }
}

/**
 * What ky threw, as the core error the caller sees: the typed error of an HTTP failure (read by
 * attempt-fetch), a TimeoutError for ky's timeout; core errors and anything else pass through.
 */
function coreError(error: unknown, call: Call): unknown {
  if (isHTTPError(error)) {
    const reading = readingOf(error.response);
    return reading && !reading.ok ? reading.error : error;
  }
  // Not ky's error as the cause: it holds ky's Request, whose headers carry the API key.
  if (isTimeoutError(error)) return timeoutError(call, call.timeoutMs);
  return error;
}

/** An answer's body for an event: redacted like an error's, or only its size if not JSON. */
function redactBody(text: string, secrets: readonly string[] | undefined): unknown {
  try {
    return redact(parseJson(text), { secrets });
  } catch {
    return `[${text.length} bytes, not JSON]`;
  }
}
