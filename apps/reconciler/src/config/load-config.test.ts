// loadConfig: defaults, flags over environment, errors that name the setting and the rule but
// never the value, and describeConfig without secrets.
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { describeConfig } from "./describe-config";
import { formatDuration, parseDuration } from "./durations";
import { ConfigError, loadConfig, requireSettings } from "./load-config";

const SECRET = "sk_live_do-not-print-me";

describe("loadConfig", () => {
  it("has the documented defaults", () => {
    const config = loadConfig({}, {}, { cwd: "/srv/app" });
    expect(config.database).toEqual({ dataDir: resolve("/srv/app", ".data/reconciler") });
    expect(config.windowMs).toBe(86_400_000);
    expect(config.lookbackMs).toBe(3 * 86_400_000);
    expect(config.initialStart).toEqual({ agoMs: 30 * 86_400_000 });
    expect(config.concurrency).toBe(4);
    expect(config.requestsPerSecond).toBe(20);
    expect(config.cron).toBe("*/15 * * * *");
    expect(config.timestampUnit).toBe("ms");
    expect(config.environment).toBeUndefined();
  });

  it("reads the environment, and a flag wins over it", () => {
    const config = loadConfig(
      {
        DATABASE_URL: "postgres://u:p@db:5432/rec",
        MERCHANTKIT_ENVIRONMENT: "http://127.0.0.1:4010",
        RECONCILER_CONCURRENCY: "8",
        RECONCILER_WINDOW: "6h",
        RECONCILER_START: "2026-01-01T00:00:00Z",
        ACCOUNT_TIMESTAMP_UNIT: "s",
      },
      { concurrency: "2", lookback: "90m" },
    );
    expect(config.database).toEqual({ url: "postgres://u:p@db:5432/rec" });
    expect(config.environment).toEqual({ origin: "http://127.0.0.1:4010" });
    expect(config.concurrency).toBe(2);
    expect(config.windowMs).toBe(6 * 3_600_000);
    expect(config.lookbackMs).toBe(90 * 60_000);
    expect(config.initialStart).toEqual({ at: new Date("2026-01-01T00:00:00Z") });
    expect(config.timestampUnit).toBe("s");
  });

  it("lets --data-dir win over an inherited DATABASE_URL", () => {
    const config = loadConfig({ DATABASE_URL: "postgres://db/x" }, { "data-dir": "/tmp/r" });
    expect(config.database).toEqual({ dataDir: "/tmp/r" });
    // In memory stays in memory: not a folder "memory:" under the working directory.
    expect(loadConfig({}, { "data-dir": "memory://" }).database).toEqual({ dataDir: "memory://" });
  });

  it("names every broken setting with its variable, flag and rule, never its value", () => {
    let error: unknown;
    try {
      loadConfig(
        {
          RECONCILER_CONCURRENCY: "0",
          RECONCILER_WINDOW: SECRET,
          MERCHANTKIT_ENVIRONMENT: SECRET,
          DATABASE_URL: `mysql://root:${SECRET}@h/db`,
          RECONCILER_CRON: "every day",
        },
        { rps: "fast" },
      );
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).not.toContain(SECRET);
    expect((error as ConfigError).issues).toEqual([
      "DATABASE_URL (--database-url): must be a postgres:// or postgresql:// URL",
      'MERCHANTKIT_ENVIRONMENT (--environment): must be "sandbox", "production" or an http(s) origin URL without a user or password',
      'RECONCILER_WINDOW (--window): must be a duration such as "1d", "6h", "15m" or "30s"',
      "RECONCILER_CONCURRENCY (--concurrency): must be at least 1",
      "RECONCILER_RPS (--rps): must be a whole number",
      "RECONCILER_CRON (--cron): must be a valid cron expression (node-cron syntax)",
    ]);
  });

  it("refuses a database URL the driver cannot read (a port that is no number), naming the variable", () => {
    for (const [env, url] of [
      ["DATABASE_URL", `postgres://rec:${SECRET}@127.0.0.1:notaport/rec`],
      ["DATABASE_URL", `postgresql://rec:${SECRET}@db:99999/rec`],
      ["LEDGER_DATABASE_URL", `postgres://gl:${SECRET}@erp:5432x/gl`],
      ["LEDGER_DATABASE_URL", `postgres://gl:${SECRET}%zz@erp:5432/gl`],
    ] as const) {
      let error: unknown;
      try {
        loadConfig({ [env]: url, RECONCILER_LEDGER_QUERY: "SELECT 1" });
      } catch (e) {
        error = e;
      }
      expect(error, url).toBeInstanceOf(ConfigError);
      expect((error as Error).message).not.toContain(SECRET);
      expect((error as ConfigError).issues.join("\n")).toContain(
        `${env} (--${env === "DATABASE_URL" ? "database-url" : "ledger-database-url"}): is not a valid URL`,
      );
      // Given but refused, it is not also "required" (the two lines contradicted each other).
      if (env === "LEDGER_DATABASE_URL")
        expect((error as ConfigError).issues.join("\n")).not.toContain(
          "LEDGER_DATABASE_URL (--ledger-database-url): is required",
        );
    }
    // Several hosts, a socket folder, no port: as the driver takes them.
    for (const url of [
      "postgres://u:p@h1:5432,h2:5433/db",
      "postgres:///db?host=/var/run/postgresql",
      "postgres://u@h/db",
      "postgres://u@[::1]:5432/db",
    ])
      expect(loadConfig({ DATABASE_URL: url }).database).toEqual({ url });
  });

  it("reads the finance reads' standby from RECONCILER_READ_DATABASE_URL, checked like the others", () => {
    const url = "postgres://reader@standby:5432/rec";
    expect(loadConfig({ RECONCILER_READ_DATABASE_URL: url }).readDatabaseUrl).toBe(url);
    expect(loadConfig({}).readDatabaseUrl).toBeUndefined();
    expect(() =>
      loadConfig({ RECONCILER_READ_DATABASE_URL: `postgres://r:${SECRET}@standby:54x/rec` }),
    ).toThrow("RECONCILER_READ_DATABASE_URL (--read-database-url): is not a valid URL");
  });

  it("refuses a service origin URL with a user or password, never printing it", () => {
    for (const origin of [`http://admin:${SECRET}@127.0.0.1:4011`, "https://admin@api.example"]) {
      let error: unknown;
      try {
        loadConfig({ MERCHANTKIT_ENVIRONMENT: origin });
      } catch (e) {
        error = e;
      }
      expect(error, origin).toBeInstanceOf(ConfigError);
      expect((error as Error).message).not.toContain(SECRET);
      expect((error as ConfigError).issues).toEqual([
        'MERCHANTKIT_ENVIRONMENT (--environment): must be "sandbox", "production" or an http(s) origin URL without a user or password',
      ]);
    }
  });

  it("refuses a flag without a value", () => {
    expect(() => loadConfig({}, { window: true })).toThrow("--window needs a value");
  });

  it("bounds the ledger query's run time: 5 minutes unless set, at most a day", () => {
    const env = {
      LEDGER_DATABASE_URL: "postgres://ro@erp/gl",
      RECONCILER_LEDGER_QUERY: "SELECT 1",
    };
    expect(loadConfig(env).ledgerQuery?.queryTimeoutMs).toBe(300_000);
    expect(
      loadConfig(
        { ...env, RECONCILER_LEDGER_QUERY_TIMEOUT: "30m" },
        { "ledger-query-timeout": "90s" },
      ).ledgerQuery?.queryTimeoutMs,
    ).toBe(90_000);
    expect(() => loadConfig({ ...env, RECONCILER_LEDGER_QUERY_TIMEOUT: "2d" })).toThrow(
      "RECONCILER_LEDGER_QUERY_TIMEOUT (--ledger-query-timeout): must be at most 1d",
    );
    // Whether the query returns every entry of its source (deletes follow): off unless set.
    expect(loadConfig(env).ledgerQuery?.complete).toBe(false);
    const complete = { ...env, RECONCILER_LEDGER_QUERY_COMPLETE: "true" };
    expect(loadConfig(complete).ledgerQuery?.complete).toBe(true);
    expect(() => loadConfig({ ...env, RECONCILER_LEDGER_QUERY_COMPLETE: "yes" })).toThrow(
      'RECONCILER_LEDGER_QUERY_COMPLETE (--ledger-query-complete): must be "true" or "false"',
    );
  });

  it("requireSettings names what a command needs", () => {
    const config = loadConfig({ ISSUING_API_KEY: SECRET });
    expect(() =>
      requireSettings(config, ["environment", "issuingApiKey", "accountApiKey"]),
    ).toThrow(/MERCHANTKIT_ENVIRONMENT \(--environment\): is required\n {2}ACCOUNT_API_KEY/);
  });
});

describe("describeConfig", () => {
  it("redacts keys, secrets and database passwords", () => {
    const config = loadConfig({
      DATABASE_URL: `postgres://rec:${SECRET}@db:5432/rec?sslpassword=${SECRET}`,
      ISSUING_API_KEY: SECRET,
      ACCOUNT_API_KEY: SECRET,
      PAYOUT_SECRET_KEY: SECRET,
      ISSUING_WEBHOOK_SECRET: SECRET,
      MERCHANTKIT_ENVIRONMENT: "production",
    });
    const text = JSON.stringify(describeConfig(config));
    expect(text).not.toContain(SECRET);
    expect(describeConfig(config)).toMatchObject({
      database: "postgres postgres://rec:[REDACTED]@db:5432/rec?sslpassword=[REDACTED]",
      environment: "production",
      issuingApiKey: "[REDACTED]",
      payoutSecretKey: "[REDACTED]",
      reread: "15m,1h,6h,1d,3d,7d,30d",
      window: "1d",
      lookback: "3d",
    });
  });
});

describe("the re-read schedule", () => {
  it("takes rising durations or off, and refuses anything else naming the setting", () => {
    expect(loadConfig({ RECONCILER_REREAD: "10m, 2h,1d" }).rereadScheduleMs).toEqual([
      600_000, 7_200_000, 86_400_000,
    ]);
    expect(loadConfig({ RECONCILER_REREAD: "off" }).rereadScheduleMs).toEqual([]);
    for (const bad of ["1h,1h", "2h,1h", "1h,soon", "", "0s"])
      expect(() => loadConfig({}, { reread: bad }), bad).toThrow(
        /RECONCILER_REREAD \(--reread\): must be rising durations/,
      );
  });
});

describe("the sub-merchants (RECONCILER_ENTITIES)", () => {
  it("is the merchant alone unless set, and reads merchantNos separated by commas", () => {
    expect(loadConfig({}).entities).toEqual([]);
    expect(loadConfig({ RECONCILER_ENTITIES: " M2001, M2002 " }).entities).toEqual([
      "M2001",
      "M2002",
    ]);
    expect(loadConfig({}, { entities: "SUB_1" }).entities).toEqual(["SUB_1"]);
  });

  it("refuses a malformed list, a repeat and the merchant itself, naming the setting and the rule", () => {
    for (const bad of ["M1,,M2", "M1;M2", "M 1", "M1,"])
      expect(() => loadConfig({ RECONCILER_ENTITIES: bad }), bad).toThrow(
        /RECONCILER_ENTITIES \(--entities\): must be merchantNos separated by commas/,
      );
    expect(() => loadConfig({ RECONCILER_ENTITIES: "M1,M2,M1" })).toThrow(
      /RECONCILER_ENTITIES \(--entities\): must name each sub-merchant once/,
    );
    expect(() => loadConfig({ RECONCILER_ENTITIES: "M2,M1", MERCHANT_NO: "M1" })).toThrow(
      /RECONCILER_ENTITIES \(--entities\): must not name the merchant itself/,
    );
  });
});

describe("durations", () => {
  it("parses and prints back", () => {
    expect(parseDuration("15m")).toBe(900_000);
    expect(parseDuration("500ms")).toBe(500);
    expect(parseDuration("1.5h")).toBeUndefined();
    expect(formatDuration(5_400_000)).toBe("90m");
    expect(formatDuration(1_500)).toBe("1500ms");
  });
});
