// `reconciler webhooks`: a webhook secret that is not Base64 is bad configuration (exit 2, before
// anything is opened), a signal stop with the database away exits 0 (nothing was lost), and the
// payout path (with PAYOUT_SECRET_KEY) stores the sandbox's notifications, counted in the run.
import { existsSync } from "node:fs";
import net from "node:net";
import { join } from "node:path";
import { type RunningSandbox, startSandbox } from "@merchantkit/sandbox";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../db/connect";
import { isTrue, queryText } from "../../db/query-rows";
import { createScratchDatabase } from "../../db/scratch-database";
import { EXIT } from "../../exit-codes";
import { fakeIo, logged, spawnCli } from "../../testing/cli";
import { temporaryFolder, testBackends } from "../../testing/databases";
import { SANDBOX_KEYS } from "../../testing/sandbox";
import type { CommandIo } from "../command";
import { main } from "../main";

const SECRET = Buffer.from("reconciler-webhooks-cli-secret-0").toString("base64");

/** A TCP proxy to `target` that can cut every connection and refuse new ones. */
async function databaseProxy(target: URL) {
  const sockets = new Set<net.Socket>();
  let down = false;
  const server = net.createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => {
        client.destroy();
        upstream.destroy();
        sockets.delete(socket);
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut() {
      down = true;
      for (const socket of sockets) socket.destroy();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("reconciler webhooks", () => {
  it("refuses a webhook secret that is not Base64 with exit 2, naming the setting, before opening the database", async () => {
    const folder = temporaryFolder("reconciler-webhooks-secret");
    try {
      const dataDir = join(folder.path, "db");
      const cases: [Record<string, string>, string[], string | undefined][] = [
        [{ ISSUING_WEBHOOK_SECRET: "my-Secret-Text!!" }, [], "my-Secret-Text!!"],
        [{ ISSUING_WEBHOOK_SECRET: SECRET }, ["--webhook-secret", "whsec_c2VjcmV0"], "whsec_"],
        [{ ISSUING_WEBHOOK_SECRET: "=" }, [], undefined], // decodes to no byte at all
      ];
      for (const [env, flags, value] of cases) {
        const { io, err, out } = fakeIo(env);
        const code = await main(["webhooks", "--port", "0", "--data-dir", dataDir, ...flags], io);
        const text = [...err, ...out].join("\n");
        expect(code, text).toBe(EXIT.usage);
        expect(text).toContain(
          "ISSUING_WEBHOOK_SECRET (--webhook-secret): must be the merchant portal's webhook secret as Base64 text",
        );
        if (value !== undefined) expect(text).not.toContain(value);
        // The SDK's hint names an option the CLI does not have.
        expect(text).not.toContain("secretEncoding");
        // Nothing was opened, so nothing was created or migrated.
        expect(existsSync(dataDir)).toBe(false);
      }
    } finally {
      folder.remove();
    }
  });

  it.runIf(testBackends().includes("postgres"))(
    "exits 0 when stopped by a signal with the database away, and says its run was not closed",
    async () => {
      const scratch = await createScratchDatabase(
        process.env.DATABASE_URL ?? "",
        "reconciler_whstop",
      );
      const target = new URL(scratch.url);
      const proxy = await databaseProxy(target);
      const proxied = new URL(scratch.url);
      proxied.hostname = "127.0.0.1";
      proxied.port = String(proxy.port);
      const receiver = spawnCli(["webhooks", "--port", "0", "--host", "127.0.0.1"], {
        DATABASE_URL: proxied.toString(),
        ISSUING_WEBHOOK_SECRET: SECRET,
      });
      try {
        await receiver.waitFor((line) => line.startsWith("listening on "), 1, "out");
        proxy.cut();
        receiver.child.kill("SIGTERM");
        const { code } = await receiver.exited;
        expect(code, receiver.err.slice(-6).join("\n")).toBe(EXIT.ok);
        expect(
          logged(receiver.err, "webhook receiver run not closed (database away)"),
        ).toHaveLength(1);
        expect(logged(receiver.err, "webhook receiver stopped")).toHaveLength(1);
        expect(logged(receiver.err, "command failed")).toHaveLength(0);
        // What the operator finds afterwards: the receiver's run, open (finished_at null).
        const database = await openDatabase({ url: scratch.url, maxConnections: 2 });
        try {
          const runs = await queryText<{ open: unknown }>(
            database.db,
            "SELECT finished_at IS NULL AS open FROM sync_runs WHERE stream = 'webhooks'",
          );
          expect(runs.map((r) => isTrue(r.open))).toEqual([true]);
        } finally {
          await database.close();
        }
      } finally {
        receiver.child.kill("SIGKILL");
        await proxy.close();
        await scratch.drop();
      }
    },
    120_000,
  );
});

/** `reconciler webhooks` run in process until `stop()`; its URL once it listens. */
async function startWebhooksCommand(where: string[], env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const controller = new AbortController();
  const io: CommandIo = {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    isTty: false,
    env,
    signal: controller.signal,
  };
  const exited = main(["webhooks", "--port", "0", "--host", "127.0.0.1", ...where], io);
  const deadline = Date.now() + 60_000;
  let url: string | undefined;
  while (url === undefined) {
    url = out.find((l) => l.startsWith("listening on "))?.slice("listening on ".length);
    if (url !== undefined) break;
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r(null), 20))]);
    if (code !== null || Date.now() > deadline)
      throw new Error(`webhooks did not start (exit ${code}):\n${err.join("\n")}`);
  }
  return {
    url,
    err,
    async stop() {
      controller.abort();
      return exited;
    },
  };
}

describe.each(testBackends())("reconciler webhooks on %s: payout notifications", (kind) => {
  it("stores the sandbox's payout notifications on /webhooks/payout and counts them in its run", async () => {
    let where: string[];
    let cleanup: () => Promise<void>;
    if (kind === "pglite") {
      const folder = temporaryFolder("reconciler-webhooks-payout-");
      where = ["--data-dir", join(folder.path, "db")];
      cleanup = async () => folder.remove();
    } else {
      const scratch = await createScratchDatabase(
        process.env.DATABASE_URL ?? "",
        "reconciler_whpayout",
      );
      where = ["--database-url", scratch.url];
      cleanup = () => scratch.drop();
    }
    let sandbox: RunningSandbox | undefined;
    try {
      sandbox = await startSandbox({ webhookSecret: SECRET, webhookRetryIntervalMs: 200 });
      const env = { ISSUING_WEBHOOK_SECRET: SECRET };
      const generate = async (seed: number) => {
        const res = await fetch(`${sandbox?.url}/__sandbox/payout/generate`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ seed, payouts: 3, days: 1 }),
        });
        expect(res.status).toBe(200);
        return (await sandbox?.admin.waitForDeliveries({ timeoutMs: 10_000 }))?.filter(
          (d) => d.eventType === "payout.result",
        );
      };

      // Without PAYOUT_SECRET_KEY the payout path answers 404 and the start says so.
      const off = await startWebhooksCommand(where, env);
      await sandbox.admin.configure({ webhookUrls: { payout: `${off.url}/webhooks/payout` } });
      await sandbox.admin.configure({ webhookMaxRetries: 0 });
      const refused = (await generate(1)) ?? [];
      expect(refused.length).toBeGreaterThan(0);
      expect(refused.every((d) => d.attempts.at(-1)?.httpStatus === 404)).toBe(true);
      expect(await off.stop()).toBe(EXIT.ok);
      expect(logged(off.err, "webhook receiver listening")[0]).toMatchObject({
        payoutEndpoint: "off",
      });
      expect(logged(off.err, "payout notifications off")).toHaveLength(1);
      expect(logged(off.err, "webhook rejected")[0]?.reason).toContain("PAYOUT_SECRET_KEY");

      await sandbox.admin.reset();
      const on = await startWebhooksCommand(where, {
        ...env,
        PAYOUT_SECRET_KEY: SANDBOX_KEYS.PAYOUT_SECRET_KEY,
      });
      await sandbox.admin.configure({ webhookUrls: { payout: `${on.url}/webhooks/payout` } });
      const delivered = (await generate(2)) ?? [];
      expect(delivered.length).toBeGreaterThan(0);
      expect(delivered.every((d) => d.state === "delivered")).toBe(true);
      expect(await on.stop()).toBe(EXIT.ok);
      expect(logged(on.err, "webhook receiver stopped")[0]).toMatchObject({
        events: delivered.length,
        payoutNotifications: delivered.length,
      });

      const database = await openDatabase(
        kind === "pglite" ? { dataDir: where[1] as string } : { url: where[1] as string },
      );
      try {
        const [payouts] = await queryText<{ n: string }>(
          database.db,
          "SELECT count(*) AS n FROM payouts WHERE source = 'webhook'",
        );
        // Generated payouts settle at once (the default 2 s delay): P, then S or F, per payout.
        expect(Number(payouts?.n)).toBeGreaterThan(0);
        const runs = await queryText<{ records_seen: unknown; changed: unknown }>(
          database.db,
          `SELECT records_seen, inserted + updated + unchanged + skipped_downgrades AS changed
             FROM sync_runs WHERE stream = 'webhooks' AND finished_at IS NOT NULL
             ORDER BY started_at`,
        );
        expect(runs.map((r) => [Number(r.records_seen), Number(r.changed)])).toEqual([
          [0, 0],
          [delivered.length, delivered.length],
        ]);
      } finally {
        await database.close();
      }
    } finally {
      await sandbox?.close();
      await cleanup();
    }
  }, 120_000);
});
