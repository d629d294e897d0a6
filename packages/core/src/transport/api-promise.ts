/**
 * The result of a call: awaits to the data itself, and `.withResponse()` adds the HTTP facts
 * (status, headers, attempts, duration, ids) without changing the data's type — the place
 * where stripe-node hangs `lastResponse`, but usable for string results too.
 */

export interface ResponseMeta {
  httpStatus: number;
  headers: Headers;
  /** Attempts made, 1 when the first one succeeded. */
  attempts: number;
  /** Wall time of the whole call including backoff, in ms. */
  durationMs: number;
  requestId: string | undefined;
  idempotencyKey: string | undefined;
  respCode: string;
  respMsg: string | null;
}

export interface WithResponse<T> {
  data: T;
  response: ResponseMeta;
}

export class ApiPromise<T> implements PromiseLike<T> {
  readonly #inner: Promise<WithResponse<T>>;
  #data: Promise<T> | undefined;

  constructor(inner: Promise<WithResponse<T>>) {
    this.#inner = inner;
  }

  #dataPromise(): Promise<T> {
    this.#data ??= this.#inner.then((r) => r.data);
    return this.#data;
  }

  // biome-ignore lint/suspicious/noThenProperty: an ApiPromise is awaited like a promise on purpose
  then<R1 = T, R2 = never>(
    onFulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#dataPromise().then(onFulfilled, onRejected);
  }

  catch<R = never>(onRejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.#dataPromise().catch(onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<T> {
    return this.#dataPromise().finally(onFinally);
  }

  /** The data together with the HTTP facts of the call. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#inner;
  }

  get [Symbol.toStringTag](): string {
    return "ApiPromise";
  }
}
