/**
 * Failures that are not an answer from the service: the network, the clock, our own validation
 * of what we were about to send or what came back, and webhook/notification signatures.
 */
import { hasErrorMarker, MerchantkitError, markErrorClass } from "./merchantkit-error";

/**
 * The request may or may not have reached the service (reset, refused, DNS, aborted body). Retry
 * a write with `idempotencyKey`, the key that was sent: a new key could do the write twice.
 */
export class ConnectionError extends MerchantkitError {
  override readonly name: string = "ConnectionError";
  /** The system error code when known (ECONNRESET, ECONNREFUSED...). */
  readonly code: string | undefined;
  readonly path: string | undefined;
  /** The idempotency key the request carried (undefined for endpoints that take none). */
  readonly idempotencyKey: string | undefined;

  constructor(
    message: string,
    opts: {
      cause?: unknown;
      code?: string;
      path?: string;
      idempotencyKey?: string | undefined;
    } = {},
  ) {
    super(message, { cause: opts.cause });
    this.code = opts.code;
    this.path = opts.path;
    this.idempotencyKey = opts.idempotencyKey;
  }
}
markErrorClass(ConnectionError, "ConnectionError");

/**
 * No complete answer within the per-attempt timeout: a ConnectionError, so the request may have
 * reached the service; retry a write with `idempotencyKey`. A wait (`waitForResult`, `waitFor`,
 * `waitForReview`) that runs out throws a WaitTimeoutError instead.
 */
export class TimeoutError extends ConnectionError {
  override readonly name = "TimeoutError";
  readonly timeoutMs: number;

  constructor(
    message: string,
    opts: {
      cause?: unknown;
      path?: string;
      timeoutMs: number;
      idempotencyKey?: string | undefined;
    },
  ) {
    super(message, {
      cause: opts.cause,
      code: "ETIMEDOUT",
      idempotencyKey: opts.idempotencyKey,
      ...(opts.path ? { path: opts.path } : {}),
    });
    this.timeoutMs = opts.timeoutMs;
  }
}
markErrorClass(TimeoutError, "TimeoutError");

/**
 * A wait (`waitForResult`, `operateRecords.waitFor`, `beneficiaries.waitForReview`) ran out of
 * time before the record was final. Every read of it was answered: nothing failed and nothing
 * needs sending again. The record is still in `lastState`; read it again later or wait for its
 * notification. Not a ConnectionError (it carries no idempotency key): code that repeats a write
 * after a connection failure must not repeat it after a wait.
 */
export class WaitTimeoutError extends MerchantkitError {
  override readonly name = "WaitTimeoutError";
  /** The endpoint the wait read. */
  readonly path: string | undefined;
  /** The wait's timeout, in ms. */
  readonly timeoutMs: number;
  /** The state the record was last seen in (not final); undefined when no read had answered. */
  readonly lastState: string | undefined;

  constructor(
    message: string,
    opts: { path?: string | undefined; timeoutMs: number; lastState?: string | undefined },
  ) {
    super(message);
    this.path = opts.path;
    this.timeoutMs = opts.timeoutMs;
    this.lastState = opts.lastState;
  }
}
markErrorClass(WaitTimeoutError, "WaitTimeoutError");

/**
 * The caller's signal aborted a write after it may have been sent: the write may or may not
 * have reached the service. Look it up, or retry it with `idempotencyKey` (the key that was
 * sent; a new one could do it twice); a write that takes no key (beneficiary/add,
 * acct/addPayer...) has none, and is looked up before it is sent again. `cause` is the signal's
 * reason. Its name is "AbortError", like an aborted fetch's rejection, so checks of the name keep
 * working. A read, or a call aborted before anything was sent, rejects with the signal's reason
 * itself.
 */
export class AbortedError extends MerchantkitError {
  override readonly name = "AbortError";
  readonly path: string;
  /** The idempotency key the write carried; undefined for a write whose endpoint takes none. */
  readonly idempotencyKey: string | undefined;

  constructor(
    message: string,
    opts: { cause: unknown; path: string; idempotencyKey: string | undefined },
  ) {
    super(message, { cause: opts.cause });
    this.path = opts.path;
    this.idempotencyKey = opts.idempotencyKey;
  }
}
markErrorClass(AbortedError, "AbortedError");

/** One problem found by a schema: where (dotted path) and which rule. Never carries the value. */
export interface ValidationIssue {
  path: string;
  message: string;
}

function describe(issues: readonly ValidationIssue[]): string {
  return issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
}

/** Our own check of a request failed; nothing was sent. */
export class RequestValidationError extends MerchantkitError {
  override readonly name = "RequestValidationError";
  readonly issues: readonly ValidationIssue[];
  /** The first offending field, for the common one-problem case. */
  readonly field: string | undefined;
  readonly path: string | undefined;

  constructor(issues: readonly ValidationIssue[], opts: { path?: string } = {}) {
    super(
      `Invalid request${opts.path ? ` to ${opts.path}` : ""} (nothing was sent): ${describe(issues)}`,
    );
    this.issues = issues;
    this.field = issues[0]?.path || undefined;
    this.path = opts.path;
  }
}
markErrorClass(RequestValidationError, "RequestValidationError");

/** The service answered, but not with what the contract says (malformed JSON, wrong shape). */
export class ResponseValidationError extends MerchantkitError {
  override readonly name = "ResponseValidationError";
  readonly issues: readonly ValidationIssue[];
  readonly httpStatus: number | undefined;
  readonly path: string | undefined;
  /** The body with secrets redacted, or a truncated excerpt when it was not JSON. */
  readonly body: unknown;
  /** The body was not JSON at all (truncated, HTML error page) rather than the wrong shape. */
  readonly malformed: boolean;
  /** The idempotency key the request carried: the write may have happened, retry with this key. */
  readonly idempotencyKey: string | undefined;

  constructor(
    issues: readonly ValidationIssue[],
    opts: {
      path?: string;
      httpStatus?: number;
      body?: unknown;
      cause?: unknown;
      malformed?: boolean;
      idempotencyKey?: string | undefined;
    } = {},
  ) {
    super(`Unexpected response${opts.path ? ` from ${opts.path}` : ""}: ${describe(issues)}`, {
      cause: opts.cause,
    });
    this.issues = issues;
    this.httpStatus = opts.httpStatus;
    this.path = opts.path;
    this.body = opts.body;
    this.malformed = opts.malformed ?? false;
    this.idempotencyKey = opts.idempotencyKey;
  }
}
markErrorClass(ResponseValidationError, "ResponseValidationError");

export type SignatureFailure =
  | "no_match"
  | "stale_timestamp"
  | "malformed_header"
  | "missing_header"
  | "bad_secret"
  | "parsed_body"
  | "not_utf8"
  | "missing_sign";

/**
 * A webhook, notification or answer signature did not verify. `reason` says which check failed.
 * For an answer (profit share's verifyResponseSign) the request was accepted by the service:
 * `idempotencyKey` is the key it carried, to look the write up or retry it without doing it twice.
 */
export class SignatureError extends MerchantkitError {
  override readonly name = "SignatureError";
  readonly reason: SignatureFailure;
  /** The idempotency key of the request whose answer failed the check; undefined otherwise. */
  readonly idempotencyKey: string | undefined;

  constructor(
    reason: SignatureFailure,
    message: string,
    opts: { idempotencyKey?: string | undefined } = {},
  ) {
    super(message);
    this.reason = reason;
    this.idempotencyKey = opts.idempotencyKey;
  }
}
markErrorClass(SignatureError, "SignatureError");

/**
 * The list changed under `for await` in a way the iterator cannot read through: more records
 * were added than it remembers (the last 10,000 it yielded), so it can no longer tell which
 * records the shift would show a second time; or records were removed, so records behind them
 * moved onto pages already read and would be skipped. Read the list again (with a narrower time
 * window if it keeps changing this fast). `pageNum` and `recordsYielded` say where it stopped.
 */
export class PageDriftError extends MerchantkitError {
  override readonly name = "PageDriftError";
  /** How many records the list grew by between the two pages; negative when it shrank. */
  readonly added: number;

  constructor(added: number, remembered: number) {
    super(
      added < 0
        ? `${-added} record${added === -1 ? " was" : "s were"} removed from the list between two pages, so records may have moved onto pages already read and been skipped; read the list again`
        : `${added} records were added to the list between two pages, more than the ${remembered} ` +
            "the iterator remembers to skip repeats; read the list again (a narrower time window helps)",
    );
    this.added = added;
  }
}
markErrorClass(PageDriftError, "PageDriftError");

export const isPageDriftError = (e: unknown): e is PageDriftError =>
  hasErrorMarker(e, "PageDriftError");
export const isAbortedError = (e: unknown): e is AbortedError => hasErrorMarker(e, "AbortedError");
export const isConnectionError = (e: unknown): e is ConnectionError =>
  hasErrorMarker(e, "ConnectionError");
export const isTimeoutError = (e: unknown): e is TimeoutError => hasErrorMarker(e, "TimeoutError");
export const isWaitTimeoutError = (e: unknown): e is WaitTimeoutError =>
  hasErrorMarker(e, "WaitTimeoutError");
export const isRequestValidationError = (e: unknown): e is RequestValidationError =>
  hasErrorMarker(e, "RequestValidationError");
export const isResponseValidationError = (e: unknown): e is ResponseValidationError =>
  hasErrorMarker(e, "ResponseValidationError");
export const isSignatureError = (e: unknown): e is SignatureError =>
  hasErrorMarker(e, "SignatureError");

/** The client was built with missing or contradictory settings (no key, unknown environment). */
export class ConfigurationError extends MerchantkitError {
  override readonly name = "ConfigurationError";
}
markErrorClass(ConfigurationError, "ConfigurationError");

export const isConfigurationError = (e: unknown): e is ConfigurationError =>
  hasErrorMarker(e, "ConfigurationError");
