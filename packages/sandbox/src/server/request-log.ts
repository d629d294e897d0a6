/**
 * The last requests the sandbox answered, in memory (a ring of fixed size, so a long benchmark
 * cannot exhaust memory). Entries keep what arrived and what was answered; secrets and card
 * data are redacted when the log is read (core's redact / redactHeaders), which keeps the cost
 * off the request path and gives the same view.
 */
import { parseJson, redact, redactHeaders } from "@merchantkit/core";

export interface RequestLogInput {
  method: string;
  path: string;
  endpoint: string | undefined;
  headers: Record<string, string>;
  bodyText: string;
  httpStatus: number | undefined;
  respCode: string | undefined;
  /** Virtual clock time of arrival (ms). */
  at: number;
  /** The kind of the fault rule applied, if any. */
  fault?: string | undefined;
  /** The answer was a stored idempotent answer sent again. */
  replayed?: boolean | undefined;
}

export interface RequestLogEntry {
  seq: number;
  at: number;
  method: string;
  path: string;
  endpoint: string | undefined;
  headers: Record<string, string>;
  /** The parsed body, redacted; the text (cut to 2,000 characters) when it is not JSON. */
  body: unknown;
  /** Undefined when the connection was dropped without an answer. */
  httpStatus: number | undefined;
  respCode: string | undefined;
  fault?: string | undefined;
  replayed?: boolean | undefined;
}

const TEXT_EXCERPT = 2_000;

export class RequestLog {
  readonly #capacity: number;
  #ring: (RequestLogInput & { seq: number })[] = [];
  #next = 0;
  #seq = 0;

  constructor(capacity = 10_000) {
    this.#capacity = capacity;
  }

  add(entry: RequestLogInput): void {
    const item = { ...entry, seq: ++this.#seq };
    if (this.#ring.length < this.#capacity) this.#ring.push(item);
    else this.#ring[this.#next] = item;
    this.#next = (this.#next + 1) % this.#capacity;
  }

  /** Oldest first, redacted; `path` keeps only requests to that origin path. */
  list(filter: { path?: string | undefined } = {}): RequestLogEntry[] {
    const ordered =
      this.#ring.length < this.#capacity
        ? this.#ring
        : [...this.#ring.slice(this.#next), ...this.#ring.slice(0, this.#next)];
    return ordered.filter((e) => filter.path === undefined || e.path === filter.path).map(view);
  }

  clear(): void {
    this.#ring = [];
    this.#next = 0;
  }

  get size(): number {
    return this.#ring.length;
  }
}

function view(e: RequestLogInput & { seq: number }): RequestLogEntry {
  return {
    seq: e.seq,
    at: e.at,
    method: e.method,
    path: e.path,
    endpoint: e.endpoint,
    headers: redactHeaders(e.headers),
    body: redactedBody(e.bodyText),
    httpStatus: e.httpStatus,
    respCode: e.respCode,
    ...(e.fault ? { fault: e.fault } : {}),
    ...(e.replayed ? { replayed: true } : {}),
  };
}

function redactedBody(text: string): unknown {
  if (text === "") return undefined;
  try {
    return redact(parseJson(text));
  } catch {
    // Not JSON: an excerpt, and digit runs that could be card numbers masked.
    return text.slice(0, TEXT_EXCERPT).replace(/\d{12,}/g, (run) => "*".repeat(run.length));
  }
}
