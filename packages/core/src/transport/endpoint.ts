/**
 * What the transport needs to know about one endpoint. The contract package defines one of
 * these per path; area clients only pass them with the caller's params, so a path, a schema or
 * an idempotency rule is written once.
 */
import type * as v from "valibot";
import type { ApiErrorKind } from "../errors/api-error";
import type { Area } from "./environment";

/** How a request proves who sends it. */
export type AuthKind =
  /** merchantNo in the body and a SHA-256 `sign` over the body (payout, profit share). */
  | "sign"
  /** Header `ApiKey` (issuing). */
  | "issuingApiKey"
  /** Header `apikey` plus `x-timestamp` within ±10 minutes (account). */
  | "accountApiKey";

// biome-ignore lint/suspicious/noExplicitAny: schema type parameters are inferred per endpoint
type AnySchema = v.GenericSchema<any, any>;

export interface Endpoint<
  TRequest extends AnySchema = AnySchema,
  TResponse extends AnySchema = AnySchema,
> {
  area: Area;
  /** Path after the area's base URL, exactly as in the contract, e.g. "/card/operate". */
  path: string;
  auth: AuthKind;
  /** Caller params → wire body. Its input type is the SDK's parameter type. */
  request: TRequest;
  /** Envelope `data` as parsed losslessly → SDK result. Unknown fields must pass through. */
  response: TResponse;
  /**
   * What `v.safeParse(request, params)` and `v.safeParse(response, data)` answer, sooner: the
   * contract's endpoints answer valid values through plain functions and run the schema for
   * the rest. Without them the transport runs the schemas. The transport gives parseResponse
   * `fresh` (the same data parsed again from the answer's text): `data` is then fresh from the
   * parser and owned, so it may be decoded in place; `fresh()` is for anything that needs the
   * data as it arrived. A parser that keeps `data` (profit share's sign check) leaves `fresh` out.
   */
  parseRequest?: ((params: unknown) => v.SafeParseResult<TRequest>) | undefined;
  parseResponse?:
    | ((data: unknown, fresh?: () => unknown) => v.SafeParseResult<TResponse>)
    | undefined;
  /**
   * Reads change nothing and can always be retried. A write is retried only when it carries an
   * idempotency key, or when the failure proves the request never reached the service.
   */
  kind: "read" | "write";
  /** The body field that makes a repeat harmless; generated once when the caller gives none. */
  idempotencyKey?: { field: string; maxLength: number } | undefined;
  /** Fill `merchantNo` in the body from the client's configuration when the caller leaves it out. */
  merchantNo?: boolean | undefined;
  /** The area accepts `onBehalfOf` (sent in the body). */
  onBehalfOf?: boolean | undefined;
  /** Body fields the signature leaves out (provider-notes §1: "not signed" fields). */
  unsignedFields?: readonly string[] | undefined;
  /** Business code → error kind for this endpoint's area; unknown codes become a plain ApiError. */
  codes?: ((respCode: string) => ApiErrorKind | undefined) | undefined;
}

/**
 * Declares an endpoint keeping its literal types (the idempotency field's name, the flags), so
 * that EndpointParams can make the fields the transport fills in optional for the caller.
 */
export function defineEndpoint<const E extends Endpoint>(endpoint: E): E {
  return endpoint;
}

/** Fields the transport fills: the idempotency key (when absent) and merchantNo (from config). */
type FilledKeys<E> =
  | (E extends { idempotencyKey: { field: infer F extends string } } ? F : never)
  | (E extends { merchantNo: true } ? "merchantNo" : never);

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type CallerParams<T, Filled extends PropertyKey> = T extends unknown
  ? Simplify<Omit<T, Filled | "onBehalfOf"> & Partial<Pick<T, Filled & keyof T>>>
  : never;

/**
 * What a caller passes: the request schema's input, with the idempotency key and merchantNo
 * optional (filled in when absent) and onBehalfOf left to the per-call options.
 */
export type EndpointParams<E extends Endpoint> = CallerParams<
  v.InferInput<E["request"]>,
  FilledKeys<E>
>;
export type EndpointResult<E extends Endpoint> = v.InferOutput<E["response"]>;
