/**
 * For handler-level tests of the payout and profit-share areas: a Runtime on a frozen virtual
 * clock with a recording outbox, and `callEndpoint`, which runs a call the way the server does
 * (client-side encode, lossless JSON both ways, request decode, due transitions, handler,
 * response encode and decode), so a handler answer the contract refuses fails the test.
 */
import type { AppOf, ContractEndpoint } from "@merchantkit/contract";
import { parseJson, stringifyJson } from "@merchantkit/core";
import * as v from "valibot";
import { AccountLedger } from "../runtime/account-ledger";
import type { Area, Runtime } from "../runtime/area";
import { VirtualClock } from "../runtime/clock";
import { defaultConfig, type SandboxConfig } from "../runtime/config";
import { IdFactory, seededRandom } from "../runtime/ids";
import { MerchantLedgers } from "../runtime/merchant-ledgers";
import type { Outbox } from "../runtime/outbox";
import { SandboxError } from "../runtime/sandbox-error";
import { Scheduler } from "../runtime/scheduler";

/** 2026-06-22 10:00:00 UTC. */
export const TEST_EPOCH = Date.UTC(2026, 5, 22, 10, 0, 0);

export interface Pushes {
  payout: Record<string, unknown>[];
  profitShare: { body: Record<string, unknown>; url: string | undefined }[];
  issuing: { eventType: string; data: Record<string, unknown> }[];
}

export interface TestRuntime {
  runtime: Runtime;
  pushes: Pushes;
  /** Moves the clock and runs what became due, as the admin clock route does. */
  advance(ms: number): void;
}

export function testRuntime(overrides: Partial<SandboxConfig> = {}): TestRuntime {
  const config = { ...defaultConfig(), ...overrides };
  const clock = new VirtualClock({ frozenAt: TEST_EPOCH });
  const scheduler = new Scheduler();
  const ids = new IdFactory(config.seed);
  const pushes: Pushes = { payout: [], profitShare: [], issuing: [] };
  const outbox: Outbox = {
    issuingEvent: (eventType, data) => pushes.issuing.push({ eventType, data }),
    payoutResult: (body) => pushes.payout.push(structuredClone(body)),
    profitShareResult: (body, url) => pushes.profitShare.push({ body: structuredClone(body), url }),
  };
  const ledger = new AccountLedger(ids, { ...config.balances });
  const runtime: Runtime = {
    config,
    clock,
    scheduler,
    ids,
    ledger,
    ledgers: new MerchantLedgers(config, ids, ledger),
    outbox,
    random: seededRandom(config.seed),
  };
  return {
    runtime,
    pushes,
    advance(ms) {
      scheduler.runDue(clock.advance(ms));
    },
  };
}

/**
 * Calls `endpoint` on `area` with app-form params (merchantNo filled from the config unless
 * given) and answers the app-form data as a client would read it. SandboxErrors propagate.
 */
export function callEndpoint<E extends ContractEndpoint>(
  area: Area,
  runtime: Runtime,
  endpoint: E,
  params: Omit<AppOf<E["requestCodec"]>, "merchantNo"> & { merchantNo?: string },
): AppOf<E["responseCodec"]> {
  const merchantNo = params.merchantNo ?? runtime.config.merchantNo;
  const wire = v.parse(endpoint.requestCodec.encode, { ...params, merchantNo });
  const decoded = v.parse(endpoint.requestCodec.decode, parseJson(stringifyJson(wire)));
  const now = runtime.clock.now();
  runtime.scheduler.runDue(now);
  const handler = area.handlers.get(endpoint.name);
  if (!handler) throw new Error(`no handler for ${endpoint.name}`);
  const data = handler(decoded, { merchantNo, now });
  const encoded = v.parse(endpoint.responseCodec.encode, data);
  return v.parse(endpoint.responseCodec.decode, parseJson(stringifyJson(encoded))) as AppOf<
    E["responseCodec"]
  >;
}

/** `callEndpoint` bound to one area; params are loosely typed so tests can send odd values. */
export function endpointCaller(area: Area, runtime: Runtime) {
  return <E extends ContractEndpoint>(endpoint: E, params: object): AppOf<E["responseCodec"]> =>
    callEndpoint(area, runtime, endpoint, params as never);
}

/** The respCode and message of the SandboxError `fn` throws (fails when it throws none). */
export function errorOf(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (error) {
    if (error instanceof SandboxError) return { code: error.respCode, message: error.message };
    throw error;
  }
  throw new Error("expected a SandboxError");
}
