/**
 * For the issuing, account and generator tests (and bench/sandbox-data.bench.ts): calls a
 * running sandbox over real HTTP the way a client would (app-form params encoded with the
 * endpoint's request codec, lossless JSON, the ApiKey / apikey + x-timestamp headers) and reads
 * answers back through the response codec; the admin calls those tests need; and a Runtime
 * without a server for work on the issuing state in process.
 */
import { type AppOf, type ContractEndpoint, originPath } from "@merchantkit/contract";
import { parseJson, stringifyJson } from "@merchantkit/core";
import * as v from "valibot";
import type { SandboxConfig } from "../runtime/config";
import type { RunningSandbox } from "../start-sandbox";
import { TEST_EPOCH, testRuntime } from "./area-runtime";

export interface Answer<T> {
  status: number;
  respCode: string;
  respMsg: string | null;
  data: T | undefined;
  error?: Record<string, unknown> | undefined;
}

export function clientFor(sandbox: RunningSandbox) {
  const config = () => sandbox.runtime().config;

  async function call<E extends ContractEndpoint>(
    endpoint: E,
    params: Record<string, unknown>,
  ): Promise<Answer<AppOf<E["responseCodec"]>>> {
    const wire = v.parse(endpoint.requestCodec.encode, params);
    const headers: Record<string, string> = { "Content-Type": "application/json" };
    if (endpoint.auth === "issuingApiKey") headers.ApiKey = config().issuingApiKey;
    if (endpoint.auth === "accountApiKey") {
      headers.apikey = config().accountApiKey;
      headers["x-timestamp"] = String(sandbox.runtime().clock.now());
    }
    const res = await fetch(`${sandbox.url}${originPath(endpoint)}`, {
      method: "POST",
      headers,
      body: stringifyJson(wire),
    });
    const body = parseJson(await res.text()) as Record<string, unknown>;
    const respCode = String(body.respCode);
    const data =
      respCode === "20000"
        ? (v.parse(endpoint.responseCodec.decode, body.data) as AppOf<E["responseCodec"]>)
        : undefined;
    return {
      status: res.status,
      respCode,
      respMsg: (body.respMsg as string | null) ?? null,
      data,
      error: body.error as Record<string, unknown> | undefined,
    };
  }

  /** The data of a 20000 answer; throws with the code and message otherwise. */
  async function ok<E extends ContractEndpoint>(
    endpoint: E,
    params: Record<string, unknown>,
  ): Promise<AppOf<E["responseCodec"]>> {
    const answer = await call(endpoint, params);
    if (answer.respCode !== "20000" || answer.data === undefined) {
      throw new Error(`${endpoint.name}: ${answer.respCode} ${answer.respMsg}`);
    }
    return answer.data;
  }

  // biome-ignore lint/suspicious/noExplicitAny: admin answers are read field by field in tests
  async function admin(method: "GET" | "POST", path: string, body?: unknown): Promise<any> {
    const res = await fetch(`${sandbox.url}/__sandbox${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { body: stringifyJson(body), headers: { "Content-Type": "application/json" } }),
    });
    const parsed = parseJson(await res.text()) as Record<string, unknown>;
    if (!res.ok)
      throw Object.assign(new Error(`${res.status} ${stringifyJson(parsed)}`), {
        status: res.status,
        body: parsed,
      });
    return parsed;
  }

  return { call, ok, admin };
}

/** 2026-06-22 10:00:00 UTC: the frozen clock of the tests. */
export const TEST_NOW = TEST_EPOCH;

/**
 * A Runtime without a server, on a clock frozen at TEST_NOW, whose outbox records the issuing
 * events: for the generator's tests and benchmark, which work on the state in process.
 */
export function inProcessRuntime(overrides: Partial<SandboxConfig> = {}) {
  const { runtime, pushes, advance } = testRuntime(overrides);
  return { runtime, events: pushes.issuing, advance };
}
