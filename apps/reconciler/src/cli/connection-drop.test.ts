// The worker when Postgres drops its connections mid-run (restart, failover,
// pg_terminate_backend): `sync` ends cleanly (one JSON error line naming the host, never the
// password; exit 1; nothing half-written), `schedule` keeps running and the next cycle succeeds.
// Postgres server only: terminating backends is the point.
import { signIssuingWebhook } from "@merchantkit/webhooks";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../db/connect";
import { queryText } from "../db/query-rows";
import { createScratchDatabase, type ScratchDatabase } from "../db/scratch-database";
import { EXIT } from "../exit-codes";
import { type CliProcess, logged, spawnCli } from "../testing/cli";
import { testBackends } from "../testing/databases";
import {
  type GeneratedSandbox,
  sandboxEnv,
  startGeneratedSandbox,
  storedOf,
  truthOf,
} from "../testing/sandbox";

// Trust authentication takes any password: this one must never be printed.
const PASSWORD = "hunter2-must-not-leak";

const onPostgres = testBackends().includes("postgres");

/** Terminates every backend of `database` `times` times, `everyMs` apart. */
async function dropConnections(serverUrl: string, database: string, times: number, everyMs = 150) {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  let terminated = 0;
  try {
    for (let i = 0; i < times; i++) {
      const rows = await admin`
        SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
        WHERE datname = ${database} AND pid <> pg_backend_pid()`;
      terminated += rows.filter((r) => r.ok).length;
      await new Promise((r) => setTimeout(r, everyMs));
    }
  } finally {
    await admin.end({ timeout: 5 });
  }
  return terminated;
}

function errorLines(process: CliProcess) {
  return process.err.filter((line) => line.includes('"level":"error"'));
}

describe.runIf(onPostgres)("the worker when Postgres drops its connections", () => {
  let generated: GeneratedSandbox;
  let env: Record<string, string>;
  let scratch: ScratchDatabase;
  let url: string;
  let name: string;
  const server = process.env.DATABASE_URL ?? "";

  beforeAll(async () => {
    generated = await startGeneratedSandbox({ cardTransactions: 6_000, cards: 20, days: 6 });
    env = sandboxEnv(generated, { RECONCILER_WINDOW: "1h", RECONCILER_RPS: "80" });
  }, 120_000);
  afterAll(() => generated?.sandbox.close());

  async function freshDatabase() {
    scratch = await createScratchDatabase(server, "reconciler_drop");
    const withPassword = new URL(scratch.url);
    withPassword.password = PASSWORD;
    url = withPassword.toString();
    name = withPassword.pathname.slice(1);
  }

  it("sync: ends with one error line and exit 1; the next sync completes the tables", async () => {
    await freshDatabase();
    try {
      const first = spawnCli(["sync"], { ...env, DATABASE_URL: url });
      await first.waitFor((line) => line.includes('"msg":"window committed"'), 3);
      const terminated = await dropConnections(server, name, 4);
      expect(terminated).toBeGreaterThan(0);
      const done = await first.exited;
      const tail = first.err.slice(-8).join("\n");
      expect(done.signal).toBeNull();
      // Which of two honest endings depends on when the driver reconnects: a stream the drop
      // ended fails the run (1, an error line naming the database host); a stream that got a
      // new connection in time records the windows it could not commit and the run says data
      // is unread (3). Never 0.
      expect([EXIT.failed, EXIT.unread], tail).toContain(done.code);
      if (done.code === EXIT.failed) {
        const errors = errorLines(first);
        expect(errors.length, tail).toBeGreaterThan(0);
        const last = JSON.parse(errors.at(-1) ?? "{}");
        expect(last.database ?? last.error, tail).toContain("127.0.0.1");
      } else {
        expect(first.out.join("\n"), tail).toMatch(/unread: \d+ window/);
      }
      expect([...first.out, ...first.err].join("\n")).not.toContain(PASSWORD);

      const second = spawnCli(["sync"], { ...env, DATABASE_URL: url });
      const again = await second.exited;
      expect(again.code, second.err.slice(-8).join("\n")).toBe(0);
      const database = await openDatabase({ url: scratch.url, maxConnections: 2 });
      try {
        expect(await storedOf(database.db)).toEqual(await truthOf(generated.sandbox));
      } finally {
        await database.close();
      }
    } finally {
      await scratch.drop();
    }
  }, 180_000);

  it("schedule: a tick cut off by the database is reported, and a later tick succeeds", async () => {
    await freshDatabase();
    let worker: CliProcess | undefined;
    try {
      // A cycle every 2 seconds (node-cron's seconds field).
      worker = spawnCli(["schedule", "--run-now", "--cron", "*/2 * * * * *"], {
        ...env,
        DATABASE_URL: url,
      });
      await worker.waitFor((line) => line.includes('"msg":"window committed"'), 2);
      await dropConnections(server, name, 3);
      const cutOff = worker.out.length;
      // After the drop, a later cycle reads everything: its summary line says exit code 0.
      await worker.waitFor(
        (line) => line.includes('"msg":"cycle finished"') && JSON.parse(line).exitCode === 0,
        1,
        "out",
      );
      expect(worker.out.slice(0, cutOff).some((l) => l.includes('"exitCode":0'))).toBe(false);
      expect(worker.child.exitCode).toBeNull(); // still running
      worker.child.kill("SIGTERM");
      const done = await worker.exited;
      expect(done.code, worker.err.slice(-8).join("\n")).toBe(0);
      expect(worker.err.join("\n")).not.toContain(PASSWORD);
      expect(logged(worker.err, "schedule stopped")).toHaveLength(1);
    } finally {
      // A worker that failed the test must not outlive it.
      worker?.child.kill("SIGKILL");
      await scratch.drop();
    }
  }, 180_000);

  it("webhooks: keeps serving, and a push after the drop is stored", async () => {
    await freshDatabase();
    const secret = Buffer.from("connection-drop-webhook-secret-0").toString("base64");
    let receiver: CliProcess | undefined;
    try {
      receiver = spawnCli(["webhooks", "--port", "0", "--host", "127.0.0.1"], {
        ...env,
        DATABASE_URL: url,
        ISSUING_WEBHOOK_SECRET: secret,
      });
      await receiver.waitFor((line) => line.startsWith("listening on "), 1, "out");
      const base = receiver.out.find((l) => l.startsWith("listening on "))?.slice(13) ?? "";
      let n = 0;
      const push = async () => {
        n++;
        const body = `{"request_id":"${1_953_712_585_351_490_000n + BigInt(n)}","event_type":"issuing.cardOperateEvent","created_at":"2026-11-25T08:00:00Z","data":{"operateRecordId":${1_953_712_585_351_480_000n + BigInt(n)},"cardId":1953712585351470000,"clientRequestId":"drop-${n}","type":"FREEZE","status":"S"}}`;
        const signed = await signIssuingWebhook({ body, secret });
        const res = await fetch(`${base}/webhooks/issuing`, {
          method: "POST",
          body: signed.body,
          headers: signed.headers,
        });
        return res.status;
      };
      expect(await push()).toBe(200);
      await dropConnections(server, name, 2, 50);
      // The service retries a refused push; within a few tries one is stored again.
      const statuses: number[] = [];
      for (let i = 0; i < 20 && statuses.at(-1) !== 200; i++) {
        statuses.push(await push());
        if (statuses.at(-1) !== 200) await new Promise((r) => setTimeout(r, 250));
      }
      expect(statuses.at(-1), String(statuses)).toBe(200);
      expect(receiver.child.exitCode).toBeNull();
      const database = await openDatabase({ url: scratch.url, maxConnections: 2 });
      try {
        const stored = await queryText<{ id: string }>(
          database.db,
          `SELECT operate_record_id AS id FROM operate_records WHERE client_request_id = 'drop-${n}'`,
        );
        expect(stored.map((r) => r.id)).toEqual([String(1_953_712_585_351_480_000n + BigInt(n))]);
      } finally {
        await database.close();
      }
      receiver.child.kill("SIGTERM");
      expect((await receiver.exited).code, receiver.err.slice(-8).join("\n")).toBe(0);
      expect(receiver.err.join("\n")).not.toContain(PASSWORD);
    } finally {
      receiver?.child.kill("SIGKILL");
      await scratch.drop();
    }
  }, 120_000);
});
