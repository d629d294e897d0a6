/**
 * The two ways an attempt ends without an answer, as core errors carrying what a caller needs to
 * retry safely: the endpoint and the idempotency key that was sent (the request may have reached
 * the service, so a retry must repeat that key, never mint a new one).
 */
import { AbortedError, ConnectionError, TimeoutError } from "../errors/local-errors";
import { redactText } from "../redaction/redact";

export interface SentRequest {
  /** The endpoint's path, for messages. */
  path: string;
  idempotencyKey: string | undefined;
}

export function timeoutError(sent: SentRequest, timeoutMs: number, cause?: unknown): TimeoutError {
  return new TimeoutError(`No complete response from ${sent.path} within ${timeoutMs} ms`, {
    cause,
    path: sent.path,
    timeoutMs,
    idempotencyKey: sent.idempotencyKey,
  });
}

/**
 * Names the first system code found in the error or its causes (undici nests them). A message
 * quoted instead (a custom fetch's own error) is masked like an answer: card-like digit runs,
 * and `secrets`, the credentials the request carried.
 */
export function connectionError(
  error: unknown,
  sent: SentRequest,
  secrets?: readonly string[],
): ConnectionError {
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
  const reason =
    code ?? (error instanceof Error ? redactText(error.message, { secrets }) : "network error");
  return new ConnectionError(`Connection to the service failed on ${sent.path} (${reason})`, {
    cause: error,
    path: sent.path,
    idempotencyKey: sent.idempotencyKey,
    ...(code ? { code } : {}),
  });
}

/**
 * What a call ends in when its throttle rejects before a retry: the attempt before may have
 * reached the service (a 503 answered after the commit), so, like a custom fetch that throws on
 * a retry (connectionError), it is a ConnectionError carrying the key that was sent, the
 * throttle's error as its `cause`. The documented recovery (on isConnectionError, retry with
 * `error.idempotencyKey`) then repeats the write under that key, never a new one.
 */
export function throttleRefusal(error: unknown, sent: SentRequest): ConnectionError {
  return new ConnectionError(
    `The throttle refused to retry ${sent.path} after an attempt was sent; it may have reached the service`,
    { cause: error, path: sent.path, idempotencyKey: sent.idempotencyKey },
  );
}

/**
 * What an aborted call rejects with: the signal's reason, or, for a write that may have been
 * sent (an attempt was under way), an AbortedError: one carrying its idempotency key, so a
 * caller who let the SDK mint the key can still look the write up or repeat it; one without a
 * key for a write that takes none (beneficiary/add, acct/addPayer...), which the bare reason
 * would pass off as never sent.
 */
export function abortError(
  reason: unknown,
  sent: SentRequest & { attempt: number; endpoint: { kind: "read" | "write" } },
): unknown {
  if (sent.endpoint.kind !== "write" || sent.attempt === 0) return reason;
  const key = sent.idempotencyKey;
  const next =
    key === undefined
      ? "look it up before sending it again (this endpoint takes no idempotency key)"
      : `look it up or retry it with idempotencyKey ${key}`;
  return new AbortedError(
    `The request to ${sent.path} was aborted by the caller after it was sent; it may have reached the service: ${next}`,
    { cause: reason, path: sent.path, idempotencyKey: key },
  );
}
