/**
 * The seam between the sandbox's server and its four simulated areas. The server mounts every
 * endpoint of the contract's table, decodes the request with the endpoint's codec, and calls
 * the area's handler for that endpoint name with the decoded params; the handler returns the
 * response `data` in app form (ids as strings, amounts as decimal strings) or throws a
 * SandboxError, and the server encodes and signs the answer.
 */
import type { AppOf, ContractEndpoint } from "@merchantkit/contract";
import type { Hono } from "hono";
import type { AccountLedger } from "./account-ledger";
import type { VirtualClock } from "./clock";
import type { SandboxConfig } from "./config";
import type { IdFactory } from "./ids";
import type { MerchantLedgers } from "./merchant-ledgers";
import type { Outbox } from "./outbox";
import type { Scheduler } from "./scheduler";

/** What every area shares: configuration, time, ids, the merchant accounts and the outbox. */
export interface Runtime {
  config: SandboxConfig;
  clock: VirtualClock;
  scheduler: Scheduler;
  ids: IdFactory;
  /** The configured merchant's account. */
  ledger: AccountLedger;
  /** Every merchant's account: this one's (`ledger`) and each sub-merchant's own. */
  ledgers: MerchantLedgers;
  outbox: Outbox;
  /** Deterministic random numbers from the configured seed. */
  random: () => number;
}

export interface CallContext {
  /** The merchant the call acts for: the configured one, or the onBehalfOf child. */
  merchantNo: string;
  now: number;
}

// biome-ignore lint/suspicious/noExplicitAny: the table maps names to handlers of different endpoints
export type AnyHandler = (params: any, call: CallContext) => unknown;

/** A handler typed by its endpoint: decoded params in, response data (app form) out. */
export type Handler<E extends ContractEndpoint> = (
  params: AppOf<E["requestCodec"]>,
  call: CallContext,
) => AppOf<E["responseCodec"]>;

/** Pairs an endpoint with its handler, type-checked against the endpoint's codecs. */
export function handle<E extends ContractEndpoint>(
  endpoint: E,
  handler: Handler<E>,
): [string, AnyHandler] {
  return [endpoint.name, handler as AnyHandler];
}

export interface Area {
  name: "payout" | "account" | "issuing" | "profitShare";
  /** Endpoint name → handler, built with `handle(endpoint, fn)`. */
  handlers: ReadonlyMap<string, AnyHandler>;
  /** Admin routes, mounted under /__sandbox/<name>. */
  admin?: (app: Hono) => void;
  /** Every record the area holds, as the service holds it (app form), for the ground-truth dump. */
  dump(): Record<string, unknown>;
}

export type AreaFactory = (runtime: Runtime) => Area;
