/**
 * The one request path every area client uses (stripe-node's RequestSender): validate the
 * params, fix the idempotency key once, then per attempt authenticate, encode losslessly, send
 * (http-senders.ts), read the envelope, and retry only what is safe to repeat.
 */
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import * as v from "valibot";
import type { ApiError } from "../errors/api-error";
import {
  type ConnectionError,
  RequestValidationError,
  type ResponseValidationError,
} from "../errors/local-errors";
import { toValidationIssues } from "../errors/valibot-issues";
import { parseJson } from "../json/parse-json";
import { stringifyJson } from "../json/stringify-json";
import {
  emit,
  type Logger,
  log,
  type RequestEvent,
  type TransportHooks,
} from "../observability/events";
import { redact, redactHeaders } from "../redaction/redact";
import { ApiPromise, type WithResponse } from "./api-promise";
import type { AuthStrategy } from "./auth";
import type { Endpoint, EndpointParams, EndpointResult } from "./endpoint";
import { type Area, type Environment, resolveBaseUrl } from "./environment";
import { type HttpSender, httpSender } from "./http-senders";
import { type HttpAnswer, readResponse } from "./read-response";
import { backoffDelay, DEFAULT_RETRY, isRetryable, type RetrySettings } from "./retry-policy";

export interface TransportConfig {
  environment: Environment;
  auth: AuthStrategy;
  /** Filled into the body of endpoints that carry merchantNo when the caller leaves it out. */
  merchantNo?: string | undefined;
  /** Per attempt, covering connect, headers and body. Default 30 s. */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt. Default 2; 0 means one attempt. */
  maxRetries?: number | undefined;
  retryDelay?: Partial<Omit<RetrySettings, "maxRetries">> | undefined;
  /**
   * Send through this fetch instead of node:http (a proxy-aware fetch, a test double). Only
   * the method, headers, body and signal are used.
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
  timeoutMs?: number | undefined;
  maxRetries?: number | undefined;
  /** Used for the endpoint's key field (clientRequestId, requestId, profitReference) when the params leave it out. */
  idempotencyKey?: string | undefined;
  /** Sub-merchant / child customer (account area). */
  onBehalfOf?: string | undefined;
  signal?: AbortSignal | undefined;
}

const DEFAULT_TIMEOUT_MS = 30_000;

type Failure = { error: ApiError | ResponseValidationError | ConnectionError; httpStatus?: number };

function generateKey(maxLength: number): string {
  const id = randomUUID();
  return id.length <= maxLength ? id : id.replaceAll("-", "").slice(0, maxLength);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener("abort", abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener("abort", abort, { once: true });
  });
}

function nonNegativeInt(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) {
    throw new RequestValidationError([{ path: name, message: "must be a non-negative integer" }]);
  }
  return value;
}

export class Transport {
  readonly #config: TransportConfig;
  readonly #retry: RetrySettings;
  readonly #baseUrls = new Map<Area, string>();
  readonly #now: () => number;
  readonly #send: HttpSender;
  /** A hook or a logger wants request and response events. */
  readonly #observed: boolean;

  constructor(config: TransportConfig) {
    this.#config = config;
    this.#send = httpSender(config.fetch);
    const { hooks, logger } = config;
    this.#observed = Boolean(hooks?.onRequest || hooks?.onResponse || logger);
    this.#retry = {
      ...DEFAULT_RETRY,
      ...config.retryDelay,
      maxRetries: nonNegativeInt(config.maxRetries, DEFAULT_RETRY.maxRetries, "maxRetries"),
    };
    this.#now = config.now ?? Date.now;
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
    if (field === undefined) return { input, key: undefined };
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
    const { input, key } = this.#prepare(endpoint, params, options);
    const parsed = v.safeParse(endpoint.request, input);
    if (!parsed.success)
      throw new RequestValidationError(toValidationIssues(parsed.issues), { path: endpoint.path });
    const wire = parsed.output as Record<string, unknown>;

    const url = this.#baseUrl(endpoint.area) + endpoint.path;
    const maxRetries = nonNegativeInt(options.maxRetries, this.#retry.maxRetries, "maxRetries");
    const timeoutMs = options.timeoutMs ?? this.#config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const safe = endpoint.kind === "read" || key !== undefined;
    const tracingId = typeof wire.requestId === "string" ? wire.requestId : undefined;
    const started = performance.now();

    for (let attempt = 1; ; attempt++) {
      // Before the attempt is built, so its x-timestamp is not aged by the wait.
      if (this.#config.throttle) {
        await this.#config.throttle();
        if (options.signal?.aborted) throw options.signal.reason;
      }
      const body: Record<string, unknown> = { ...wire };
      const headers = new Headers({
        "content-type": "application/json",
        accept: "application/json",
        "user-agent": this.#config.userAgent ?? "merchantkit",
      });
      this.#config.auth.apply({
        body,
        headers,
        unsignedFields: endpoint.unsignedFields ?? [],
        now: this.#now,
      });
      // Events are built only for someone listening: redacting headers and bodies per attempt
      // is work a page loop should not pay for nothing.
      const event: RequestEvent | undefined = this.#observed
        ? {
            area: endpoint.area,
            method: "POST",
            path: endpoint.path,
            url,
            attempt,
            idempotencyKey: key,
            headers: redactHeaders(headers),
            ...(this.#config.includeBodies ? { body: redact(body) } : {}),
          }
        : undefined;
      if (event) {
        emit(this.#config.hooks?.onRequest, event);
        log(this.#config.logger, "debug", "merchantkit request", { ...event });
      }

      const attemptStart = performance.now();
      let failure: Failure;
      let answer: HttpAnswer | undefined;
      try {
        answer = await this.#send({
          url,
          body: stringifyJson(body),
          headers,
          timeoutMs,
          signal: options.signal,
          path: endpoint.path,
        });
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        failure = { error: error as ConnectionError };
      }
      if (answer) {
        const reading = readResponse(answer, {
          endpoint,
          idempotencyKey: key,
          requestId: tracingId,
        });
        this.#observe(
          event,
          attemptStart,
          answer,
          reading.ok ? undefined : reading.error,
          reading.envelope?.respCode,
        );
        if (reading.ok) {
          return {
            data: reading.data,
            response: {
              httpStatus: answer.status,
              headers: answer.headers,
              attempts: attempt,
              durationMs: performance.now() - started,
              requestId: reading.requestId,
              idempotencyKey: key,
              respCode: reading.envelope.respCode,
              respMsg: reading.envelope.respMsg,
            },
          };
        }
        failure = { error: reading.error, httpStatus: answer.status };
      } else {
        // biome-ignore lint/style/noNonNullAssertion: set in the catch above whenever answer is undefined
        this.#observe(event, attemptStart, undefined, failure!.error, undefined);
      }
      // biome-ignore lint/style/noNonNullAssertion: assigned on every path above
      const f = failure!;
      if (attempt > maxRetries || !isRetryable(f, safe)) throw f.error;
      const retryAfterSeconds = (f.error as { retryAfterSeconds?: number }).retryAfterSeconds;
      const retryAfterMs = retryAfterSeconds === undefined ? undefined : retryAfterSeconds * 1000;
      if (retryAfterMs !== undefined && retryAfterMs > this.#retry.maxRetryAfterMs) throw f.error;
      const delayMs = retryAfterMs ?? backoffDelay(attempt, this.#retry);
      const retryEvent = {
        area: endpoint.area,
        path: endpoint.path,
        attempt,
        delayMs,
        reason: f.error.name,
        idempotencyKey: key,
      };
      emit(this.#config.hooks?.onRetry, retryEvent);
      log(this.#config.logger, "warn", "merchantkit retry", { ...retryEvent });
      await sleep(delayMs, options.signal);
    }
  }

  #observe(
    event: RequestEvent | undefined,
    start: number,
    answer: HttpAnswer | undefined,
    error: Error | undefined,
    respCode: string | undefined,
  ): void {
    if (!event) return;
    const responseEvent = {
      ...event,
      httpStatus: answer?.status,
      respCode,
      durationMs: performance.now() - start,
      requestId: answer?.headers.get("x-request-id") ?? undefined,
      error: error?.name,
      ...(this.#config.includeBodies && answer ? { responseBody: redactText(answer.text) } : {}),
    };
    emit(this.#config.hooks?.onResponse, responseEvent);
    log(this.#config.logger, "debug", "merchantkit response", { ...responseEvent });
  }
}

function redactText(text: string): unknown {
  try {
    return redact(parseJson(text));
  } catch {
    return `[${text.length} bytes, not JSON]`;
  }
}
