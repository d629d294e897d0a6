/**
 * A small typed client of the admin API for tests and tools: plain fetch, bodies written with
 * stringifyJson and read with parseJson (the state dump holds 64-bit ids and exact decimals).
 */
import { parseJson, stringifyJson } from "@merchantkit/core";
import type * as v from "valibot";
import type { AccountTransaction } from "../runtime/account-ledger";
import type { FaultRule, faultRuleInput } from "../server/fault-rules";
import type { RequestLogEntry } from "../server/request-log";
import type { Delivery } from "../webhooks/delivery";
import type { WebhookFaults } from "../webhooks/webhook-pusher";
import type { ClockView } from "./admin-routes";
import type { configUpdate } from "./config-update";

export type SandboxConfigUpdate = v.InferInput<typeof configUpdate>;
export type FaultRuleSpec = v.InferInput<typeof faultRuleInput>;
export type WebhookFaultState = WebhookFaults & { held: number };

export interface SandboxState {
  clock: ClockView;
  /** The configuration with secrets redacted. */
  config: Record<string, unknown>;
  ledger: { balances: Record<string, string>; transactions: AccountTransaction[] };
  /** Each configured sub-merchant's own account, by merchantNo (its movements only). */
  subMerchantLedgers: Record<
    string,
    { balances: Record<string, string>; transactions: AccountTransaction[] }
  >;
  /** Each area's dump(), by area name. */
  areas: Record<string, Record<string, unknown>>;
}

export interface SandboxAdmin {
  /** A fresh runtime and areas with the current configuration; logs, faults, deliveries emptied. */
  reset(): Promise<void>;
  /** The configuration, secrets redacted. */
  config(): Promise<Record<string, unknown>>;
  configure(update: SandboxConfigUpdate): Promise<Record<string, unknown>>;
  clock(): Promise<ClockView>;
  /** Moves the virtual clock forward and runs every transition that became due. */
  advanceClock(ms: number): Promise<ClockView & { ran: number }>;
  freezeClock(at?: number): Promise<ClockView & { ran: number }>;
  unfreezeClock(): Promise<ClockView>;
  injectFault(rule: FaultRuleSpec): Promise<FaultRule>;
  faults(): Promise<FaultRule[]>;
  clearFaults(): Promise<void>;
  requests(filter?: { path?: string }): Promise<RequestLogEntry[]>;
  clearRequests(): Promise<void>;
  deliveries(): Promise<Delivery[]>;
  /** Resolves with the log once no delivery is pending; rejects after `timeoutMs` (5 s). */
  waitForDeliveries(opts?: { timeoutMs?: number }): Promise<Delivery[]>;
  redeliver(id: string): Promise<Delivery>;
  webhookFaults(opts: Partial<WebhookFaults>): Promise<WebhookFaultState>;
  state(): Promise<SandboxState>;
}

/** A non-2xx answer of the admin API. */
export class SandboxAdminError extends Error {
  override readonly name = "SandboxAdminError";
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(message);
  }
}

export function createSandboxAdmin(origin: string): SandboxAdmin {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${origin}/__sandbox${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { body: stringifyJson(body), headers: { "Content-Type": "application/json" } }),
    });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text === "" ? undefined : parseJson(text);
    } catch {
      parsed = text;
    }
    if (!res.ok) {
      const said = (parsed as { error?: unknown } | undefined)?.error;
      throw new SandboxAdminError(
        `${method} /__sandbox${path}: HTTP ${res.status}${typeof said === "string" ? `: ${said}` : ""}`,
        res.status,
        parsed,
      );
    }
    return parsed as T;
  };

  const admin: SandboxAdmin = {
    reset: async () => {
      await call("POST", "/reset", {});
    },
    config: () => call("GET", "/config"),
    configure: (update) => call("POST", "/config", update),
    clock: () => call("GET", "/clock"),
    advanceClock: (ms) => call("POST", "/clock/advance", { ms }),
    freezeClock: (at) => call("POST", "/clock/freeze", at === undefined ? {} : { at }),
    unfreezeClock: () => call("POST", "/clock/unfreeze", {}),
    injectFault: async (rule) => (await call<{ rule: FaultRule }>("POST", "/faults", rule)).rule,
    faults: async () => (await call<{ rules: FaultRule[] }>("GET", "/faults")).rules,
    clearFaults: async () => {
      await call("DELETE", "/faults");
    },
    requests: async (filter = {}) => {
      const query = filter.path ? `?path=${encodeURIComponent(filter.path)}` : "";
      return (await call<{ requests: RequestLogEntry[] }>("GET", `/requests${query}`)).requests;
    },
    clearRequests: async () => {
      await call("DELETE", "/requests");
    },
    deliveries: async () =>
      (await call<{ deliveries: Delivery[] }>("GET", "/deliveries")).deliveries,
    waitForDeliveries: async ({ timeoutMs = 5_000 } = {}) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const log = await call<{ deliveries: Delivery[]; pending: number }>("GET", "/deliveries");
        if (log.pending === 0) return log.deliveries;
        if (Date.now() >= deadline) {
          const ids = log.deliveries.filter((d) => d.state === "pending").map((d) => d.id);
          throw new Error(
            `waitForDeliveries: ${log.pending} still pending after ${timeoutMs} ms (${ids.join(", ")})`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    redeliver: async (id) =>
      (
        await call<{ delivery: Delivery }>(
          "POST",
          `/deliveries/${encodeURIComponent(id)}/redeliver`,
        )
      ).delivery,
    webhookFaults: (opts) => call("POST", "/webhooks/faults", opts),
    state: () => call("GET", "/state"),
  };
  return admin;
}
