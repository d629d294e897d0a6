/**
 * Delivers pushes to the merchant's URLs and keeps the delivery log. A delivery succeeds when
 * the receiver answers HTTP 2xx with JSON respCode "20000"; otherwise (or on a network error)
 * it is retried every `webhookRetryIntervalMs` up to `webhookMaxRetries` times (the service:
 * 15 s, 10 times). Retries run on REAL timers, not on the virtual clock, so a test scales the
 * interval down instead of advancing time. Each attempt of an issuing push gets a fresh
 * x-timestamp (the virtual clock) and x-signature over the same body. Sending starts on the
 * next turn of the event loop, so a push never holds up the request that caused it.
 */
import { parseJson } from "@merchantkit/core";
import type { SandboxConfig } from "../runtime/config";
import type { Delivery, DeliveryAttempt, DeliveryKind, PushInput } from "./delivery";
import { issuingSignature } from "./issuing-signature";

const CONTENT_TYPE = "application/json;charset=UTF-8";
/** Per attempt: connect, headers and body. */
const ATTEMPT_TIMEOUT_MS = 10_000;
/** Finished deliveries beyond this many are dropped, oldest first. */
const LOG_CAPACITY = 10_000;

export interface WebhookFaults {
  /** The next n pushes are delivered twice (two deliveries with the same body). */
  duplicateNext: number;
  /** The next n pushes are held, then delivered in reverse order, one after another. */
  reorderNext: number;
}

export interface PusherDeps {
  /** The live configuration (URLs, secret, retry rule are read at each attempt). */
  config: () => SandboxConfig;
  /** The virtual clock of the current runtime. */
  now: () => number;
}

export class WebhookPusher {
  readonly #deps: PusherDeps;
  #deliveries: Delivery[] = [];
  #byId = new Map<string, Delivery>();
  #timers = new Set<NodeJS.Timeout>();
  #abort = new AbortController();
  #generation = 0;
  #seq = 0;
  #faults: WebhookFaults = { duplicateNext: 0, reorderNext: 0 };
  #held: Delivery[] = [];

  constructor(deps: PusherDeps) {
    this.#deps = deps;
  }

  /** Records a push and starts delivering it; returns the deliveries made (two if duplicated). */
  push(input: PushInput): Delivery[] {
    const first = this.#record(input);
    const made = [first];
    if (this.#faults.duplicateNext > 0) {
      this.#faults.duplicateNext--;
      made.push(this.#record({ ...input }, first.id));
    }
    if (this.#faults.reorderNext > 0 && first.state === "pending") {
      this.#faults.reorderNext--;
      for (const d of made) d.held = true;
      this.#held.push(...made);
      if (this.#faults.reorderNext === 0) this.#releaseHeld();
      return made;
    }
    for (const d of made) this.#start(d);
    return made;
  }

  /** Logs a push that could not be made at all (a sandbox bug), as failed, without sending. */
  recordFailure(input: PushInput, error: string, at: number): Delivery {
    const d = this.#record({ ...input, url: undefined });
    d.state = "failed";
    d.attempts.push({ at, error });
    return d;
  }

  /** Sends a logged push again as a new delivery (a duplicate, as the service may send). */
  redeliver(id: string): Delivery | undefined {
    const original = this.#byId.get(id);
    if (!original) return undefined;
    const url = original.url ?? this.urlFor(original.kind);
    const copy = this.#record({ ...original, url }, original.id);
    this.#start(copy);
    return copy;
  }

  /** The configured URL of a kind of push. */
  urlFor(kind: DeliveryKind): string | undefined {
    return this.#deps.config().webhookUrls[kind];
  }

  list(): Delivery[] {
    return this.#deliveries.map((d) => ({ ...d, attempts: [...d.attempts] }));
  }

  get pending(): number {
    return this.#deliveries.filter((d) => d.state === "pending").length;
  }

  faults(): WebhookFaults & { held: number } {
    return { ...this.#faults, held: this.#held.length };
  }

  /** Replaces the given counters; setting reorderNext to 0 releases what is held. */
  setFaults(next: Partial<WebhookFaults>): WebhookFaults & { held: number } {
    if (next.duplicateNext !== undefined) this.#faults.duplicateNext = next.duplicateNext;
    if (next.reorderNext !== undefined) {
      this.#faults.reorderNext = next.reorderNext;
      if (next.reorderNext === 0 && this.#held.length > 0) this.#releaseHeld();
    }
    return this.faults();
  }

  /** Stops every timer and in-flight attempt and forgets the log (sandbox reset). */
  reset(): void {
    this.#generation++;
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    this.#abort.abort();
    this.#abort = new AbortController();
    this.#deliveries = [];
    this.#byId.clear();
    this.#held = [];
    this.#faults = { duplicateNext: 0, reorderNext: 0 };
  }

  close(): void {
    this.reset();
  }

  #record(input: PushInput, duplicateOf?: string): Delivery {
    const d: Delivery = {
      id: `d${++this.#seq}`,
      kind: input.kind,
      url: input.url,
      requestId: input.requestId,
      eventType: input.eventType,
      body: input.body,
      attempts: [],
      state: input.url ? "pending" : "undeliverable",
      ...(duplicateOf ? { duplicateOf } : {}),
    };
    this.#deliveries.push(d);
    this.#byId.set(d.id, d);
    this.#trim();
    return d;
  }

  // Compacts only once the log is 10 % over capacity, so the cost per push stays constant.
  #trim(): void {
    if (this.#deliveries.length <= LOG_CAPACITY + LOG_CAPACITY / 10) return;
    const keep: Delivery[] = [];
    let drop = this.#deliveries.length - LOG_CAPACITY;
    for (const d of this.#deliveries) {
      if (drop > 0 && d.state !== "pending") {
        drop--;
        this.#byId.delete(d.id);
      } else keep.push(d);
    }
    this.#deliveries = keep;
  }

  #start(d: Delivery): void {
    if (d.state !== "pending") return;
    const generation = this.#generation;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      void this.#attempt(d, generation);
    }, 0);
    timer.unref();
    this.#timers.add(timer);
  }

  // One after another, last held first, so the receiver sees them in reverse order.
  #releaseHeld(): void {
    const batch = this.#held.reverse();
    this.#held = [];
    const generation = this.#generation;
    void (async () => {
      for (const d of batch) {
        d.held = false;
        if (d.state === "pending") await this.#attempt(d, generation);
      }
    })();
  }

  async #attempt(d: Delivery, generation: number): Promise<void> {
    if (generation !== this.#generation || !d.url) return;
    const config = this.#deps.config();
    const at = this.#deps.now();
    const headers: Record<string, string> = { "Content-Type": CONTENT_TYPE };
    if (d.kind === "issuing") {
      const timestamp = String(Math.floor(at / 1000));
      headers["x-timestamp"] = timestamp;
      headers["x-signature"] = issuingSignature(config.webhookSecret, timestamp, d.body);
    }
    const attempt: DeliveryAttempt = { at };
    let acknowledged = false;
    try {
      const res = await fetch(d.url, {
        method: "POST",
        headers,
        body: d.body,
        signal: AbortSignal.any([this.#abort.signal, AbortSignal.timeout(ATTEMPT_TIMEOUT_MS)]),
      });
      attempt.httpStatus = res.status;
      const respCode = ackCode(await res.text());
      if (respCode !== undefined) attempt.respCode = respCode;
      acknowledged = res.ok && respCode === "20000";
      if (!acknowledged) {
        attempt.error = !res.ok
          ? `HTTP ${res.status}`
          : respCode === undefined
            ? "the answer is not a JSON acknowledgement with respCode"
            : "respCode is not 20000";
      }
    } catch (error) {
      attempt.error = errorText(error);
    }
    if (generation !== this.#generation) return;
    d.attempts.push(attempt);
    if (acknowledged) {
      d.state = "delivered";
    } else if (d.attempts.length <= config.webhookMaxRetries) {
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        void this.#attempt(d, generation);
      }, this.#deps.config().webhookRetryIntervalMs);
      timer.unref();
      this.#timers.add(timer);
    } else {
      d.state = "failed";
    }
  }
}

function ackCode(text: string): string | undefined {
  try {
    const body = parseJson(text);
    if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
    const code = (body as Record<string, unknown>).respCode;
    if (typeof code === "string") return code;
    if (typeof code === "number") return String(code);
    return undefined;
  } catch {
    return undefined;
  }
}

function errorText(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause as { code?: unknown } | undefined;
    const code = typeof cause?.code === "string" ? ` (${cause.code})` : "";
    return `${error.name}: ${error.message}${code}`;
  }
  return String(error);
}
