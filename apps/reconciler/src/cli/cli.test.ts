// The CLI without a database: argument parsing, help, unknown commands and flags, and
// configuration errors with their exit codes.
import { describe, expect, it } from "vitest";
import { EXIT } from "../exit-codes";
import { exitCodeOf } from "../sync/exit-code";
import type { SyncSummary } from "../sync/sync-types";
import { fakeIo } from "../testing/cli";
import { commandFlags } from "./command-support";
import { main } from "./main";
import { parseArgs, SWITCH, UsageError } from "./parse-args";

describe("parseArgs", () => {
  it("reads --name value, --name=value, bare flags and positionals", () => {
    expect(
      parseArgs(["file.csv", "--from", "2026-01-01", "--run-now", "--to=--x", "--", "--y"]),
    ).toEqual({
      positional: ["file.csv", "--y"],
      flags: { from: "2026-01-01", "run-now": true, to: "--x" },
    });
  });

  it("refuses a flag that needs a value without one, and a value given to a switch", () => {
    expect(() => parseArgs(["ID", "--reason"])).toThrow(/--reason <value>' argument missing/);
    expect(() => parseArgs(["--json=yes"])).toThrow(UsageError);
  });

  it("reads every switch a command declares as one, --full included", () => {
    expect(parseArgs(["--full", "--no-sync"]).flags).toEqual({ full: true, "no-sync": true });
    // A switch schema under a name parse-args does not know would take the next word as its value.
    expect(() => commandFlags({ positional: [], flags: {} }, { sudden: SWITCH })).toThrow(
      /--sudden is a switch missing from parse-args.ts's SWITCHES/,
    );
  });

  it("refuses a flag given twice", () => {
    expect(() => parseArgs(["--a", "1", "--a", "2"])).toThrow(UsageError);
  });
});

describe("main", () => {
  it("lists the commands on help, exit 0; nothing at all is a usage error", async () => {
    const help = fakeIo();
    expect(await main(["help"], help.io)).toBe(EXIT.ok);
    const text = help.out.join("\n");
    for (const name of [
      "migrate",
      "sync",
      "backfill",
      "schedule",
      "status",
      "webhooks",
      "run",
      "match",
      "windows",
      "report",
      "demo",
    ])
      expect(text).toContain(`  ${name} `);
    const none = fakeIo();
    expect(await main([], none.io)).toBe(EXIT.usage);
    const helpHelp = fakeIo();
    expect(await main(["help", "help"], helpHelp.io)).toBe(EXIT.ok);
    expect(helpHelp.out.join("\n")).toBe(text);
  });

  it("says its version", async () => {
    for (const word of ["--version", "version"]) {
      const { io, out } = fakeIo();
      expect(await main([word], io)).toBe(EXIT.ok);
      expect(out.join("\n")).toMatch(/^@merchantkit\/reconciler \d+\.\d+\.\d+/);
    }
  });

  it("refuses words a command does not read, naming them (run extra ran as if not there)", async () => {
    for (const argv of [
      ["run", "extra"],
      ["sync", "now"],
      ["status", "x"],
      ["migrate", "x"],
    ]) {
      const { io, err } = fakeIo();
      expect(await main(argv, io)).toBe(EXIT.usage);
      expect(err.join("\n")).toContain(`unexpected argument(s): ${argv[1]}`);
    }
  });

  it("shows one command's usage", async () => {
    const { io, out } = fakeIo();
    expect(await main(["help", "backfill"], io)).toBe(EXIT.ok);
    expect(out.join("\n")).toContain("usage: reconciler backfill --from ISO --to ISO");
    const group = fakeIo();
    expect(await main(["help", "ledger"], group.io)).toBe(EXIT.ok);
    expect(group.out.join("\n")).toContain("usage: reconciler ledger import");
    const windows = fakeIo();
    expect(await main(["help", "windows"], windows.io)).toBe(EXIT.ok);
    expect(windows.out.join("\n")).toContain("usage: reconciler windows [--all]");
    // The settings' flags too, which every command takes (help match did not list them).
    const match = fakeIo();
    expect(await main(["help", "match"], match.io)).toBe(EXIT.ok);
    for (const flag of ["--database-url", "--data-dir", "--ledger-query-file", "--environment"])
      expect(match.out.join("\n")).toContain(flag);
    const flag = fakeIo();
    expect(await main(["sync", "--help"], flag.io)).toBe(EXIT.ok);
    expect(flag.out.join("\n")).toContain("usage: reconciler sync");
  });

  it("answers 2 for an unknown command, an unknown flag or a bad flag value", async () => {
    const unknown = fakeIo();
    expect(await main(["synch"], unknown.io)).toBe(EXIT.usage);
    expect(unknown.err.join("\n")).toContain('unknown command "synch"');
    const flag = fakeIo();
    expect(await main(["sync", "--strem", "x"], flag.io)).toBe(EXIT.usage);
    expect(flag.err.join("\n")).toContain("unknown flag --strem");
    const stream = fakeIo();
    expect(await main(["sync", "--stream", "cards"], stream.io)).toBe(EXIT.usage);
    expect(stream.err.join("\n")).toContain("--stream: must name streams");
    const range = fakeIo();
    expect(await main(["backfill", "--from", "2026-01-02"], range.io)).toBe(EXIT.usage);
    expect(range.err.join("\n")).toContain("backfill needs both --from and --to");
    const order = fakeIo();
    expect(await main(["sync", "--from", "2026-01-02", "--to", "2026-01-01"], order.io)).toBe(
      EXIT.usage,
    );
  });

  it("answers 2 with the setting's name when the configuration is wrong or incomplete", async () => {
    const bad = fakeIo({ RECONCILER_RPS: "0", ISSUING_API_KEY: "secret-key-value" });
    expect(await main(["sync", "--data-dir", "memory://"], bad.io)).toBe(EXIT.usage);
    expect(bad.err.join("\n")).toContain("RECONCILER_RPS (--rps): must be at least 1");
    expect(bad.err.join("\n")).not.toContain("secret-key-value");
    // `run` checks the sync's settings once its database is open: still exit 2, not a failed cycle.
    const run = fakeIo();
    expect(await main(["run", "--data-dir", "memory://"], run.io)).toBe(EXIT.usage);
    expect(run.err.join("\n")).toContain("MERCHANTKIT_ENVIRONMENT (--environment): is required");
  });

  it("answers a DATABASE_URL the driver cannot read with exit 2, naming it, never the password", async () => {
    for (const command of [["run"], ["status"], ["schedule", "--no-sync"]]) {
      const { io, err, out } = fakeIo();
      const code = await main(command, {
        ...io,
        env: { DATABASE_URL: "postgres://postgres:dbpw-XYZ@127.0.0.1:notaport/x" },
      });
      const text = [...err, ...out].join("\n");
      expect(code, text).toBe(EXIT.usage);
      expect(text).toContain("DATABASE_URL (--database-url): is not a valid URL");
      expect(text).not.toContain("dbpw-XYZ");
      expect(text).not.toContain("Invalid URL");
    }
  });
});

describe("the sync's exit code", () => {
  const summary = (over: Partial<SyncSummary>): SyncSummary => ({
    outcome: "partial",
    unread: { count: 0, since: null },
    interrupted: false,
    streams: {},
    seconds: 1,
    ...over,
  });

  it("is 4 for a stop even when it left serviceIds due (every deploy exited 3, data unread)", () => {
    const unread = { count: 330, since: "2026-05-01T00:00:00.000Z" };
    expect(exitCodeOf(summary({ interrupted: true, unread }))).toBe(EXIT.stopped);
    expect(exitCodeOf(summary({ unread }))).toBe(EXIT.unread);
    expect(exitCodeOf(summary({ outcome: "failed", interrupted: true }))).toBe(EXIT.failed);
    expect(exitCodeOf(summary({ outcome: "ok" }))).toBe(EXIT.ok);
  });
});
