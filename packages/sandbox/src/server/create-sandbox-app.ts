/**
 * The sandbox as a Hono app, without a port: every endpoint of the contract's table at its
 * origin path, and the admin API under /__sandbox. `startSandbox` serves it over HTTP; tests
 * and tools may call `app.fetch` in-process.
 */
import { endpoints, originPath } from "@merchantkit/contract";
import { stringifyJson } from "@merchantkit/core";
import { Hono } from "hono";
import { adminError } from "../admin/admin-http";
import { mountCoreAdmin } from "../admin/admin-routes";
import { defaultAreas } from "../areas";
import type { Area, Runtime } from "../runtime/area";
import { mountWebhookAdmin } from "../webhooks/webhook-admin";
import { INTERNAL_ERROR_CODE } from "./area-codes";
import { endpointRoute } from "./endpoint-route";
import { jsonResponse } from "./envelope";
import { InjectedResetError } from "./fault-response";
import { SandboxHost } from "./sandbox-host";
import { resolveConfig, type SandboxOptions } from "./sandbox-options";
import { mountServerAdmin } from "./server-admin";

export interface SandboxApp {
  /** The Hono app: `app.fetch(request)` answers like the served sandbox. */
  app: Hono;
  /** The sandbox's state holder (configuration, runtime, stores). */
  host: SandboxHost;
  /** The current runtime (a new one after each reset). */
  runtime(): Runtime;
  /** The current areas (new ones after each reset). */
  areas(): Area[];
  /** Stops webhook timers and in-flight pushes. */
  close(): void;
}

export function createSandboxApp(options: SandboxOptions = {}): SandboxApp {
  const host = new SandboxHost(resolveConfig(options), options.areas ?? defaultAreas);
  const app = new Hono();
  for (const endpoint of endpoints) app.all(originPath(endpoint), endpointRoute(host, endpoint));
  mountCoreAdmin(app, host);
  mountServerAdmin(app, host);
  mountWebhookAdmin(app, host.pusher);

  app.notFound((c) => {
    if (c.req.path.startsWith("/__sandbox")) {
      return adminError(`no admin route ${c.req.method} ${c.req.path}`, 404);
    }
    return jsonResponse({
      status: 404,
      respCode: undefined,
      text: stringifyJson({ respCode: "40400", respMsg: `no endpoint at ${c.req.path}` }),
    });
  });
  app.onError((error, c) => {
    // In-process there is no socket to drop: rethrowing makes app.fetch reject like a reset.
    if (error instanceof InjectedResetError) throw error;
    console.error(`[sandbox] ${c.req.method} ${c.req.path} failed:`, error);
    if (c.req.path.startsWith("/__sandbox")) return adminError("sandbox internal error", 500);
    return jsonResponse({
      status: 500,
      respCode: INTERNAL_ERROR_CODE,
      text: stringifyJson({ respCode: INTERNAL_ERROR_CODE, respMsg: "sandbox internal error" }),
    });
  });

  return {
    app,
    host,
    runtime: () => host.runtime,
    areas: () => host.areas,
    close: () => host.close(),
  };
}
