/**
 * Everything one running sandbox holds: the live configuration, the current runtime and areas
 * (replaced by reset), the endpoint-name → handler table, the area admin apps, and the
 * server's own stores (idempotent answers, request log, fault rules, webhook pusher). The HTTP
 * app reads the current runtime from here on every request, so reset takes effect at once.
 */
import { Hono } from "hono";
import { adminError } from "../admin/admin-http";
import type { AnyHandler, Area, AreaFactory, Runtime } from "../runtime/area";
import type { SandboxConfig } from "../runtime/config";
import { seededRandom } from "../runtime/ids";
import { WebhookPusher } from "../webhooks/webhook-pusher";
import { createRuntime } from "./create-runtime";
import { FaultRules } from "./fault-rules";
import { IdempotencyStore } from "./idempotency-store";
import { RequestLog } from "./request-log";

// How often due transitions run by themselves while the clock runs (not frozen): a card operation
// settles and its webhook goes out at its time, as on the real service, not at the next request.
const TICK_MS = 100;

// Faults draw from their own sequence, so injecting them never shifts the areas' random choices.
const faultRandom = (seed: number) => seededRandom(seed ^ 0x5eed_fa17);

export class SandboxHost {
  readonly config: SandboxConfig;
  readonly factories: readonly AreaFactory[];
  readonly pusher: WebhookPusher;
  readonly requests = new RequestLog();
  readonly idempotency = new IdempotencyStore();
  readonly faults: FaultRules;
  runtime: Runtime;
  areas: Area[] = [];
  handlers = new Map<string, AnyHandler>();
  /** Area name → a Hono app with the area's admin routes under /__sandbox/<name>. */
  areaAdmins = new Map<string, Hono>();
  readonly #ticker: ReturnType<typeof setInterval>;

  constructor(config: SandboxConfig, factories: readonly AreaFactory[]) {
    this.config = config;
    this.factories = factories;
    this.pusher = new WebhookPusher({
      config: () => this.config,
      now: () => this.runtime.clock.now(),
    });
    this.faults = new FaultRules(faultRandom(config.seed));
    this.runtime = createRuntime(config, this.pusher);
    this.#build();
    this.#ticker = setInterval(() => this.#tick(), TICK_MS);
    // Never what keeps a process alive: a test's or the bin's server does that.
    this.#ticker.unref?.();
  }

  /**
   * Runs what became due by real time passing. A frozen clock only moves by admin calls (which
   * run what they make due), so tests that freeze it stay deterministic.
   */
  #tick(): void {
    const { clock, scheduler } = this.runtime;
    if (clock.frozen) return;
    try {
      scheduler.runDue(clock.now());
    } catch (error) {
      // A failing transition must not stop the ticker (a request would answer it with a 500).
      console.error("sandbox: a scheduled transition failed:", error);
    }
  }

  /** A fresh runtime and areas with the current configuration; every store is emptied. */
  reset(): void {
    this.pusher.reset();
    this.requests.clear();
    this.idempotency.clear();
    this.faults.clear(faultRandom(this.config.seed));
    this.runtime = createRuntime(this.config, this.pusher);
    this.#build();
  }

  /** Stops the ticker, webhook timers and in-flight pushes. */
  close(): void {
    clearInterval(this.#ticker);
    this.pusher.close();
  }

  #build(): void {
    this.areas = this.factories.map((factory) => factory(this.runtime));
    this.handlers = new Map();
    this.areaAdmins = new Map();
    for (const area of this.areas) {
      for (const [name, handler] of area.handlers) this.handlers.set(name, handler);
      if (area.admin) {
        const app = new Hono().basePath(`/__sandbox/${area.name}`);
        area.admin(app);
        app.notFound((c) => adminError(`no admin route ${c.req.method} ${c.req.path}`, 404));
        this.areaAdmins.set(area.name, app);
      }
    }
  }
}
