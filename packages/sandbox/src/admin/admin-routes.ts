/**
 * The sandbox's core admin routes under /__sandbox: reset, configuration, the virtual clock,
 * the ground-truth state, and each area's own admin routes under /__sandbox/<area name>.
 */
import type { Context, Hono } from "hono";
import * as v from "valibot";
import { JSON_CONTENT_TYPE } from "../server/envelope";
import type { SandboxHost } from "../server/sandbox-host";
import { adminError, adminJson, readAdminBody } from "./admin-http";
import { strict, wholeNumber } from "./admin-schemas";
import { applyConfigUpdate, configUpdate, redactedConfig } from "./config-update";
import { jsonStream } from "./state-stream";

const AREA_NAMES = ["payout", "account", "issuing", "profitShare"] as const;

export interface ClockView {
  now: number;
  iso: string;
  frozen: boolean;
  /** Scheduled transitions not yet due. */
  scheduled: number;
  nextAt: number | undefined;
}

export function clockView(host: SandboxHost): ClockView {
  const { clock, scheduler } = host.runtime;
  const now = clock.now();
  return {
    now,
    iso: new Date(now).toISOString(),
    frozen: clock.frozen,
    scheduled: scheduler.size,
    nextAt: scheduler.nextAt,
  };
}

/** Runs every transition due at the clock's current time; returns how many ran. */
function settle(host: SandboxHost): number {
  return host.runtime.scheduler.runDue(host.runtime.clock.now());
}

export function mountCoreAdmin(app: Hono, host: SandboxHost): void {
  app.post("/__sandbox/reset", async (c) => {
    const body = await readAdminBody(c, strict({}));
    if ("response" in body) return body.response;
    host.reset();
    return adminJson({ reset: true, clock: clockView(host) });
  });

  app.get("/__sandbox/config", () => adminJson(redactedConfig(host.config)));
  app.post("/__sandbox/config", async (c) => {
    const body = await readAdminBody(c, configUpdate);
    if ("response" in body) return body.response;
    applyConfigUpdate(host.config, body.value);
    return adminJson(redactedConfig(host.config));
  });

  app.get("/__sandbox/clock", () => adminJson(clockView(host)));
  app.post("/__sandbox/clock/advance", async (c) => {
    const body = await readAdminBody(c, strict({ ms: wholeNumber(0) }));
    if ("response" in body) return body.response;
    host.runtime.clock.advance(body.value.ms);
    const ran = settle(host);
    return adminJson({ ...clockView(host), ran });
  });
  app.post("/__sandbox/clock/freeze", async (c) => {
    const body = await readAdminBody(c, strict({ at: v.optional(wholeNumber(0)) }));
    if ("response" in body) return body.response;
    host.runtime.clock.freeze(body.value.at);
    const ran = settle(host);
    return adminJson({ ...clockView(host), ran });
  });
  app.post("/__sandbox/clock/unfreeze", async (c) => {
    const body = await readAdminBody(c, strict({}));
    if ("response" in body) return body.response;
    host.runtime.clock.unfreeze();
    return adminJson(clockView(host));
  });

  app.get("/__sandbox/state", () => {
    const { runtime } = host;
    // Due transitions first, so the dump is the state as of the clock's now.
    settle(host);
    const state = {
      clock: clockView(host),
      config: redactedConfig(host.config),
      ledger: { balances: runtime.ledger.balances(), transactions: runtime.ledger.transactions },
      subMerchantLedgers: runtime.ledgers.subMerchants(),
      areas: Object.fromEntries(host.areas.map((area) => [area.name, area.dump()])),
    };
    return new Response(jsonStream(state), { headers: { "Content-Type": JSON_CONTENT_TYPE } });
  });

  // Each area's admin app is looked up per request: reset replaces the areas and their apps.
  for (const name of AREA_NAMES) {
    const forward = (c: Context) => {
      const areaApp = host.areaAdmins.get(name);
      if (!areaApp) return adminError(`the ${name} area has no admin routes`, 404);
      return areaApp.fetch(c.req.raw, c.env);
    };
    app.all(`/__sandbox/${name}`, forward);
    app.all(`/__sandbox/${name}/*`, forward);
  }
}
