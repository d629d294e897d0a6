/**
 * For this package's tests only (not exported): a sandbox, a client pointed at it with short
 * retry delays, and the sandbox's issuing admin routes, which play the card network.
 */
import { parseJson, stringifyJson } from "@merchantkit/core";
import { type RunningSandbox, type StartSandboxOptions, startSandbox } from "@merchantkit/sandbox";
import type { IssuingClientOptions } from "../client-options";
import { IssuingClient } from "../issuing-client";

export const API_KEY = "sandbox-issuing-api-key";
export const MERCHANT_NO = "M1000001";
/** The sandbox's fixed card products. */
export const PRODUCTS = {
  USD: "1953712585300000001",
  EUR: "1953712585300000002",
  SGD: "1953712585300000003",
  HKD: "1953712585300000004",
} as const;
export const PREFIX = "/api/v1/merchant";

export interface TestBed {
  sandbox: RunningSandbox;
  issuing: IssuingClient;
  client(extra?: Partial<IssuingClientOptions>): IssuingClient;
  // biome-ignore lint/suspicious/noExplicitAny: admin answers are read field by field in tests
  admin(method: "GET" | "POST", path: string, body?: unknown): Promise<any>;
  /** Logged requests to one issuing path ("/card/deposit"). */
  sent(path: string): Promise<
    {
      body: Record<string, unknown>;
      httpStatus?: number;
      respCode?: string;
      fault?: string;
      replayed?: boolean;
    }[]
  >;
  close(): Promise<void>;
}

export async function testBed(options: StartSandboxOptions = {}): Promise<TestBed> {
  const sandbox = await startSandbox({ settleDelayMs: 2_000, ...options });
  const client = (extra: Partial<IssuingClientOptions> = {}) =>
    new IssuingClient({
      environment: { origin: sandbox.url },
      apiKey: API_KEY,
      merchantNo: MERCHANT_NO,
      retryDelay: { baseDelayMs: 1, maxDelayMs: 5 },
      ...extra,
    });
  return {
    sandbox,
    issuing: client(),
    client,
    async admin(method, path, body) {
      const res = await fetch(`${sandbox.url}/__sandbox${path}`, {
        method,
        ...(body === undefined
          ? {}
          : { body: stringifyJson(body), headers: { "content-type": "application/json" } }),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${path}: HTTP ${res.status} ${text}`);
      return parseJson(text);
    },
    async sent(path) {
      const requests = await sandbox.admin.requests({ path: PREFIX + path });
      return requests.map((r) => ({
        body: r.body as Record<string, unknown>,
        httpStatus: r.httpStatus,
        respCode: r.respCode,
        fault: r.fault,
        replayed: r.replayed,
      }));
    },
    close: () => sandbox.close(),
  };
}
