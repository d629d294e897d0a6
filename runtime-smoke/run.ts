/**
 * `pnpm smoke:runtimes`: the SDK proven on four runtimes. Builds the scenario (scenario.ts)
 * against the packages' built dist/ (run `pnpm build` first), starts a sandbox on 127.0.0.1,
 * prepares each runtime's input (a profit-share payment, a 503-after fault on the remittance,
 * a webhook signed here with node:crypto) and runs the same scenario on Node, Bun, Deno and
 * Cloudflare workerd through miniflare without nodejs_compat. One line per runtime; any failure
 * exits 1.
 */
import { execFile } from "node:child_process";
import { createHmac } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { startSandbox } from "@merchantkit/sandbox";
import { Miniflare } from "miniflare";
import { build } from "tsdown";
import type { SmokeInput, SmokeStep } from "./scenario";

const here = import.meta.dirname;
const root = resolve(here, "..");
const out = join(here, "dist");
const bin = (name: string) => join(root, "node_modules", ".bin", name);

for (const pkg of ["core", "contract", "issuing", "payout", "profit-share", "account", "webhooks"])
  if (!existsSync(join(root, "packages", pkg, "dist", "index.mjs")))
    throw new Error(`packages/${pkg} is not built: run pnpm build first`);

// One JS file for Node, Bun and Deno (the packages stay imports, resolved to their dist/), one
// self-contained module for workerd.
await build({
  entry: { "run-scenario": join(here, "run-scenario.ts") },
  outDir: out,
  format: "esm",
  platform: "neutral",
  deps: { neverBundle: [/^@merchantkit\//, /^node:/] },
  dts: false,
  clean: true,
  logLevel: "warn",
});
await build({
  entry: { worker: join(here, "worker.ts") },
  outDir: out,
  format: "esm",
  platform: "browser",
  deps: { alwaysBundle: [/.*/] },
  dts: false,
  clean: false,
  logLevel: "warn",
});

const sandbox = await startSandbox({ settleDelayMs: 200, reviewDelayMs: 200 });
const config = sandbox.runtime().config;
const admin = async (path: string, body: unknown) => {
  const res = await fetch(`${sandbox.url}/__sandbox${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, unknown>>;
};

const lines: string[] = [];
let failed = false;
try {
  await admin("/issuing/generate", { seed: 5, cards: 150, cardTransactions: 600, days: 5 });
  const state = (await sandbox.admin.state()) as unknown as {
    areas: {
      issuing: { operateRecords: { operateRecordId: string; status: string; amount?: string }[] };
    };
  };
  const serviceIds = state.areas.issuing.operateRecords
    .filter((o) => o.status === "S" && o.amount !== undefined)
    .map((o) => o.operateRecordId)
    .slice(0, 150);
  if (serviceIds.length < 150) throw new Error(`only ${serviceIds.length} operations generated`);
  const now = Math.floor(Date.now() / 1000);

  const inputFor = async (runtime: string): Promise<SmokeInput> => {
    const { payment } = (await admin("/profitShare/payments", {
      amount: "100.00",
      currency: "USD",
      profitShare: true,
    })) as { payment: { gatewayReference: string } };
    // The service takes the next remittance, then answers 503: the SDK retries with its key.
    await sandbox.admin.clearFaults();
    await sandbox.admin.injectFault({
      path: "/payout/api/v1/txn/remittance",
      kind: "http_status",
      status: 503,
      count: 1,
      after: true,
    });
    // Written as text: the card id is a 64-bit number a JS number would round.
    const body = `{"request_id":"${1953712585351000000n + BigInt(lines.length)}","event_type":"issuing.cardTransactionEvent","created_at":"${new Date().toISOString()}","data":{"txnOrderNo":"SMOKE-${runtime}","txnType":"CLEARING","txnStatus":"S","cardId":1953712585351499776,"settleAmount":12.34}}`;
    const timestamp = String(now);
    const signature = createHmac("sha256", Buffer.from(config.webhookSecret, "base64"))
      .update(`${timestamp}.${body}`)
      .digest("hex");
    return {
      runtime,
      origin: sandbox.url,
      keys: {
        issuing: config.issuingApiKey,
        account: config.accountApiKey,
        secretKey: config.secretKey,
        merchantNo: config.merchantNo,
      },
      window: { start: now - 6 * 86_400, end: now + 60 },
      serviceIds,
      gatewayReference: payment.gatewayReference,
      webhook: {
        secret: config.webhookSecret,
        body,
        headers: {
          "content-type": "application/json",
          "x-timestamp": timestamp,
          "x-signature": signature,
        },
      },
    };
  };

  const script = join(out, "run-scenario.js");
  const inProcess = (command: string, args: string[]) => async (input: SmokeInput) => {
    const file = join(out, `input-${input.runtime}.json`);
    mkdirSync(out, { recursive: true });
    writeFileSync(file, JSON.stringify(input));
    const { stdout } = await promisify(execFile)(command, [...args, file], { cwd: root });
    return JSON.parse(stdout.trim().split("\n").at(-1) ?? "[]") as SmokeStep[];
  };
  const runtimes: [string, (input: SmokeInput) => Promise<SmokeStep[]>][] = [
    ["node", inProcess(process.execPath, [script])],
    ["bun", inProcess(bin("bun"), ["run", script])],
    ["deno", inProcess(bin("deno"), ["run", "--allow-net", "--allow-read", "--allow-env", script])],
    [
      "workerd",
      async (input) => {
        // No compatibility flags: the packages must load without nodejs_compat.
        const mf = new Miniflare({
          modules: true,
          scriptPath: join(out, "worker.js"),
          compatibilityDate: "2025-07-01",
        });
        try {
          const res = await mf.dispatchFetch("http://smoke.local/", {
            method: "POST",
            body: JSON.stringify(input),
          });
          return (await res.json()) as SmokeStep[];
        } finally {
          await mf.dispose();
        }
      },
    ],
  ];
  for (const [runtime, run] of runtimes) {
    const started = performance.now();
    try {
      const steps = await run(await inputFor(runtime));
      const bad = steps.filter((s) => !s.ok);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      if (steps.length === 6 && bad.length === 0)
        lines.push(`${runtime}: ok, 6 steps (${seconds} s)`);
      else {
        failed = true;
        lines.push(
          `${runtime}: FAILED: ${bad.map((s) => `${s.step}: ${s.detail}`).join("; ") || `${steps.length} steps`}`,
        );
      }
    } catch (error) {
      failed = true;
      lines.push(
        `${runtime}: FAILED: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
      );
    }
    console.log(lines.at(-1));
  }
} finally {
  await sandbox.close();
}
if (failed) process.exitCode = 1;
