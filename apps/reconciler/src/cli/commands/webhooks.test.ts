// `reconciler webhooks`: a webhook secret that is not Base64 is bad configuration (exit 2, before
// anything is opened), and a signal stop with the database away exits 0 (nothing was lost).
import { existsSync } from "node:fs";
import net from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../db/connect";
import { isTrue, queryText } from "../../db/query-rows";
import { createScratchDatabase } from "../../db/scratch-database";
import { temporaryFolder, testBackends } from "../../db/test-databases";
import { EXIT } from "../exit-codes";
import { main } from "../main";
import { fakeIo, logged, spawnCli } from "../test-cli";

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
