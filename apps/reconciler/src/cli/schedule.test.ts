// `reconciler schedule` when it cannot do its work: a configuration the sync cannot use stops
// it at once (exit 2, like `run`), and a tick that throws before its cycle could report itself
// still prints the cycle's summary line, verdict "failed", exit 1.
import { describe, expect, it } from "vitest";
import { EXIT } from "../exit-codes";
import { fakeIo, logged } from "../testing/cli";
import { temporaryFolder, testBackends } from "../testing/databases";
import { reportedCycle } from "./commands/cycle-command";
import { main } from "./main";

describe("schedule", () => {
  it("refuses to start without the sync's settings (exit 2), naming them", async () => {
    const { io, err, out } = fakeIo();
    const data = temporaryFolder("schedule-data-");
    // Stopped after 20 s should it schedule after all, so a regression fails instead of hanging.
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), 20_000);
    try {
      const code = await main(["schedule", "--data-dir", data.path, "--run-now"], {
        ...io,
        signal: stop.signal,
      });
      expect(code).toBe(EXIT.usage);
    } finally {
      clearTimeout(timer);
      data.remove();
    }
    expect(err.join("\n")).toContain("MERCHANTKIT_ENVIRONMENT (--environment): is required");
    expect(err.join("\n")).toContain("ISSUING_API_KEY (--issuing-api-key): is required");
    expect(logged(err, "schedule started")).toEqual([]);
    expect(logged(out, "cycle finished")).toEqual([]);
  }, 30_000);

  // It started, every tick matching as of that one instant: grace periods and ages stood still.
  it("refuses --as-of (exit 2), saying why, and help schedule does not offer it", async () => {
    const { io, err, out } = fakeIo();
    // Stopped after 5 s should it schedule after all, so a regression fails instead of hanging.
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), 5_000);
    try {
      const argv = ["schedule", "--no-sync", "--data-dir", "memory://", "--as-of", "2026-05-01"];
      expect(await main(argv, { ...io, signal: stop.signal })).toBe(EXIT.usage);
    } finally {
      clearTimeout(timer);
    }
    expect(err[0]).toMatch(/^reconciler: --as-of is not for schedule: .*every tick/);
    expect(logged(err, "schedule started")).toEqual([]);
    expect(out).toEqual([]);
    const help = fakeIo();
    expect(await main(["help", "schedule"], help.io)).toBe(EXIT.ok);
    expect(help.out.join("\n")).toContain("[--run-now]");
    expect(help.out.join("\n")).not.toContain("--as-of");
  }, 30_000);

  // It exited 1 at once, with no summary line, while the docs promise failed ticks that report.
  it("keeps ticking when the database cannot be reached at start: each tick fails and reports", async () => {
    const { io, err, out } = fakeIo();
    const stop = new AbortController();
    const done = main(["schedule", "--cron", "* * * * * *", "--run-now"], {
      ...io,
      env: {
        // Nothing listens on port 1: refused at once.
        DATABASE_URL: "postgres://postgres:dbpw-XYZ@127.0.0.1:1/x",
        MERCHANTKIT_ENVIRONMENT: "http://127.0.0.1:9",
        ISSUING_API_KEY: "x",
        ACCOUNT_API_KEY: "y",
        PAYOUT_SECRET_KEY: "z",
        MERCHANT_NO: "M1",
      },
      signal: stop.signal,
    });
    let early: number | undefined;
    void done.then((code) => {
      early = code;
    });
    try {
      for (
        let i = 0;
        i < 200 && early === undefined && logged(out, "cycle finished").length < 2;
        i++
      )
        await new Promise((r) => setTimeout(r, 100));
    } finally {
      stop.abort();
    }
    expect(early, err.join("\n")).toBeUndefined(); // still running until stopped
    expect(await done).toBe(EXIT.ok);
    const summaries = logged(out, "cycle finished");
    expect(summaries.length).toBeGreaterThanOrEqual(2);
    for (const summary of summaries)
      expect(summary).toMatchObject({ verdict: "failed", exitCode: EXIT.failed });
    expect(logged(err, "scheduled cycle failed").length).toBeGreaterThanOrEqual(2);
    expect(logged(err, "schedule started")).toHaveLength(1);
    expect([...err, ...out].join("\n")).not.toContain("dbpw-XYZ");
  }, 60_000);

  it("reports a tick that throws as a failed cycle: an error line and a summary line", async () => {
    const { io, err, out } = fakeIo();
    const code = await reportedCycle(io, io.err, async () => {
      throw new Error("connect ECONNREFUSED 127.0.0.1:5432");
    });
    expect(code).toBe(EXIT.failed);
    expect(logged(err, "scheduled cycle failed")).toEqual([
      expect.objectContaining({ error: expect.stringContaining("ECONNREFUSED") }),
    ]);
    expect(logged(out, "cycle finished")).toEqual([
      expect.objectContaining({
        verdict: "failed",
        exitCode: EXIT.failed,
        match: { error: expect.stringContaining("ECONNREFUSED") },
      }),
    ]);
  });

  it("answers a tick's own exit code when it runs", async () => {
    const { io, out } = fakeIo();
    expect(await reportedCycle(io, io.err, async () => EXIT.ledgerRejected)).toBe(5);
    expect(out).toEqual([]);
  });
});

// A cycle longer than the one-second schedule: its ledger query sleeps 1.5 s on the server.
describe.each(testBackends().filter((k) => k === "postgres"))(
  "schedule's overlapping ticks (ledger query on %s)",
  () => {
    it("skips a tick while a cycle runs with a JSON line of its own, and writes nothing but JSON", async () => {
      const { io, err, out } = fakeIo();
      const stop = new AbortController();
      const done = main(["schedule", "--no-sync", "--cron", "* * * * * *"], {
        ...io,
        env: {
          RECONCILER_DATA_DIR: "memory://",
          LEDGER_DATABASE_URL: process.env.DATABASE_URL as string,
          RECONCILER_LEDGER_QUERY: `SELECT 'E1' AS entry_id, 'account' AS kind, '1' AS provider_ref,
          '1.00' AS amount, 'USD' AS currency, '2026-05-01' AS booked_at
          FROM pg_sleep(1.5) WHERE random() < 0`,
        },
        signal: stop.signal,
      });
      try {
        for (let i = 0; i < 300 && logged(out, "cycle finished").length < 2; i++)
          await new Promise((r) => setTimeout(r, 100));
      } finally {
        stop.abort();
        await done;
      }
      expect(logged(out, "cycle finished").length).toBeGreaterThanOrEqual(2);
      expect(
        logged(err, "tick skipped: the previous cycle is still running").length,
      ).toBeGreaterThan(0);
      // node-cron's own notices came as coloured text ("[NODE-CRON] [WARN] task still running").
      for (const line of err) expect(() => JSON.parse(line), line).not.toThrow();
    }, 60_000);
  },
);
