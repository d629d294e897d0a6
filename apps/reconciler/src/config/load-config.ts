// loadConfig(env, flags): the reconciler's settings from the environment and CLI flags (a flag
// wins), each checked with valibot; an error names the variable, the flag and the rule broken,
// never the value (it may be a secret).
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Environment } from "@merchantkit/core";
import { validate as validateCron } from "node-cron";
import * as v from "valibot";
import { DEFAULT_DATA_DIR } from "../db/connect";
import { databaseUrlProblem } from "../db/reach-database";
import {
  DEFAULT_DUE,
  DEFAULT_DUE_DAYS,
  DEFAULT_DUE_LARGE_AMOUNT,
  type DueSettings,
  parseDueDays,
  parseLargeAmount,
} from "./due-settings";
import { parseDuration } from "./durations";
import type { ReconcilerConfig } from "./reconciler-config";

/** A setting was missing or broke its rule; `issues` names each one as `VAR (--flag): rule`. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
  constructor(readonly issues: string[]) {
    super(`invalid configuration:\n  ${issues.join("\n  ")}`);
  }
}

const text = () => v.pipe(v.string(), v.trim(), v.minLength(1, "must not be empty"));

const whole = (min: number, max: number) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.regex(/^\d+$/, "must be a whole number"),
    v.transform(Number),
    v.number(),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );

const duration = (min: number, minText: string) =>
  v.pipe(
    v.string(),
    v.check(
      (s) => parseDuration(s) !== undefined,
      'must be a duration such as "1d", "6h", "15m" or "30s"',
    ),
    v.transform((s) => parseDuration(s) as number),
    v.minValue(min, `must be at least ${minText}`),
  );

/** Re-read steps: durations after a serviceId's last change, rising ("15m,1h,6h"), or "off". */
const rereadSchedule = v.pipe(
  v.string(),
  v.trim(),
  v.transform((s): number[] | undefined => {
    if (s === "off") return [];
    const steps = s.split(",").map((part) => parseDuration(part));
    if (steps.some((ms) => ms === undefined || ms <= 0)) return undefined;
    const ms = steps as number[];
    return ms.every((step, i) => i === 0 || step > (ms[i - 1] as number)) ? ms : undefined;
  }),
  v.check(
    (x) => x !== undefined,
    'must be rising durations separated by commas ("15m,1h,6h,1d,3d,7d,30d") or "off"',
  ),
  v.transform((x) => x as number[]),
);

const environment = v.pipe(
  v.string(),
  v.trim(),
  v.check((s) => {
    if (s === "sandbox" || s === "production") return true;
    try {
      const url = new URL(s);
      // No user or password: the API keys are the credentials, and a URL is printed in the
      // configuration line (it leaked "http://admin:pw@…" there, then every request failed).
      return (
        (url.protocol === "http:" || url.protocol === "https:") && !url.username && !url.password
      );
    } catch {
      return false;
    }
  }, 'must be "sandbox", "production" or an http(s) origin URL without a user or password'),
  v.transform((s): Environment => (s === "sandbox" || s === "production" ? s : { origin: s })),
);

const initialStart = v.pipe(
  v.string(),
  v.trim(),
  v.transform((s): ReconcilerConfig["initialStart"] | undefined => {
    const ago = parseDuration(s);
    if (ago !== undefined) return { agoMs: ago };
    const at = /^\d{4}-\d{2}-\d{2}/.test(s) ? new Date(s) : new Date(Number.NaN);
    return Number.isNaN(at.getTime()) ? undefined : { at };
  }),
  v.check((x) => x !== undefined, 'must be an ISO 8601 date-time or a duration back ("30d")'),
  v.transform((x) => x as ReconcilerConfig["initialStart"]),
);

// Checked as the driver reads it, so a URL it cannot parse (a port that is no number) names the
// setting (exit 2) rather than failing later with the driver's bare "TypeError: Invalid URL".
const databaseUrl = v.pipe(
  text(),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const problem = databaseUrlProblem(dataset.value);
    if (problem) addIssue({ message: problem });
  }),
);

/** A merchantNo as the service writes them: letters, digits, "_" and "-". */
const MERCHANT_NO_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Sub-merchants' merchantNos, separated by commas: each well-formed, none twice. */
const entities = v.pipe(
  v.string(),
  v.trim(),
  v.transform((s) => s.split(",").map((part) => part.trim())),
  v.check(
    (list) => list.every((no) => MERCHANT_NO_PATTERN.test(no)),
    'must be merchantNos separated by commas ("M2001,M2002"), each of letters, digits, "_" or "-" (at most 64)',
  ),
  v.check((list) => new Set(list).size === list.length, "must name each sub-merchant once"),
);

const cron = v.pipe(
  text(),
  v.check((s) => validateCron(s), "must be a valid cron expression (node-cron syntax)"),
);

/** Each setting: its environment variable, its flag, its rule and its default. */
const FIELDS = {
  databaseUrl: { env: "DATABASE_URL", flag: "database-url", schema: databaseUrl },
  readDatabaseUrl: {
    env: "RECONCILER_READ_DATABASE_URL",
    flag: "read-database-url",
    schema: databaseUrl,
  },
  dataDir: { env: "RECONCILER_DATA_DIR", flag: "data-dir", schema: text() },
  environment: { env: "MERCHANTKIT_ENVIRONMENT", flag: "environment", schema: environment },
  issuingApiKey: { env: "ISSUING_API_KEY", flag: "issuing-api-key", schema: text() },
  accountApiKey: { env: "ACCOUNT_API_KEY", flag: "account-api-key", schema: text() },
  payoutSecretKey: { env: "PAYOUT_SECRET_KEY", flag: "payout-secret-key", schema: text() },
  merchantNo: { env: "MERCHANT_NO", flag: "merchant-no", schema: text() },
  entities: { env: "RECONCILER_ENTITIES", flag: "entities", schema: entities },
  webhookSecret: { env: "ISSUING_WEBHOOK_SECRET", flag: "webhook-secret", schema: text() },
  timestampUnit: {
    env: "ACCOUNT_TIMESTAMP_UNIT",
    flag: "timestamp-unit",
    schema: v.picklist(["s", "ms"], 'must be "s" or "ms"'),
    fallback: "ms",
  },
  windowMs: {
    env: "RECONCILER_WINDOW",
    flag: "window",
    schema: duration(1_000, "1s"),
    fallback: "1d",
  },
  lookbackMs: {
    env: "RECONCILER_LOOKBACK",
    flag: "lookback",
    schema: duration(0, "0s"),
    fallback: "3d",
  },
  initialStart: { env: "RECONCILER_START", flag: "start", schema: initialStart, fallback: "30d" },
  concurrency: {
    env: "RECONCILER_CONCURRENCY",
    flag: "concurrency",
    schema: whole(1, 64),
    fallback: "4",
  },
  requestsPerSecond: {
    env: "RECONCILER_RPS",
    flag: "rps",
    schema: whole(1, 100_000),
    fallback: "20",
  },
  driftRetries: {
    env: "RECONCILER_DRIFT_RETRIES",
    flag: "drift-retries",
    schema: whole(0, 100),
    fallback: "3",
  },
  maxWindowAttempts: {
    env: "RECONCILER_MAX_WINDOW_ATTEMPTS",
    flag: "max-window-attempts",
    schema: whole(1, 1_000),
    fallback: "10",
  },
  maxRetries: {
    env: "RECONCILER_MAX_RETRIES",
    flag: "max-retries",
    schema: whole(0, 20),
    fallback: "4",
  },
  rereadScheduleMs: {
    env: "RECONCILER_REREAD",
    flag: "reread",
    schema: rereadSchedule,
    fallback: "15m,1h,6h,1d,3d,7d,30d",
  },
  rereadLimit: {
    env: "RECONCILER_REREAD_LIMIT",
    flag: "reread-limit",
    schema: whole(0, 10_000_000),
    fallback: "5000",
  },
  followLimit: {
    env: "RECONCILER_FOLLOW_LIMIT",
    flag: "follow-limit",
    schema: whole(0, 10_000_000),
    fallback: "1000",
  },
  cron: { env: "RECONCILER_CRON", flag: "cron", schema: cron, fallback: "*/15 * * * *" },
  ledgerDir: { env: "RECONCILER_LEDGER_DIR", flag: "ledger-dir", schema: text() },
  ledgerDatabaseUrl: {
    env: "LEDGER_DATABASE_URL",
    flag: "ledger-database-url",
    schema: databaseUrl,
  },
  ledgerQuery: { env: "RECONCILER_LEDGER_QUERY", flag: "ledger-query", schema: text() },
  ledgerQueryFile: {
    env: "RECONCILER_LEDGER_QUERY_FILE",
    flag: "ledger-query-file",
    schema: text(),
  },
  // Postgres takes statement_timeout in whole milliseconds up to 2^31-1 (about 24 days).
  ledgerQueryTimeoutMs: {
    env: "RECONCILER_LEDGER_QUERY_TIMEOUT",
    flag: "ledger-query-timeout",
    schema: v.pipe(duration(1_000, "1s"), v.maxValue(86_400_000, "must be at most 1d")),
    fallback: "5m",
  },
  // Off by default: a query narrowed by a date (or any) filter leaves rows out that still exist.
  ledgerQueryComplete: {
    env: "RECONCILER_LEDGER_QUERY_COMPLETE",
    flag: "ledger-query-complete",
    schema: v.pipe(
      v.picklist(["true", "false"], 'must be "true" or "false"'),
      v.transform((value) => value === "true"),
    ),
    fallback: "false",
  },
  reportDir: { env: "RECONCILER_REPORT_DIR", flag: "report-dir", schema: text() },
  // Checked against the break classes in loadConfig (opts.breakClasses) when the caller knows them.
  dueDays: {
    env: "RECONCILER_DUE_DAYS",
    flag: "due-days",
    schema: v.pipe(
      text(),
      v.rawCheck(({ dataset, addIssue }) => {
        if (!dataset.typed) return;
        const parsed = parseDueDays(dataset.value);
        if (typeof parsed === "string") addIssue({ message: parsed });
      }),
    ),
    fallback: DEFAULT_DUE_DAYS,
  },
  dueLargeAmount: {
    env: "RECONCILER_DUE_LARGE_AMOUNT",
    flag: "due-large-amount",
    schema: v.pipe(
      text(),
      v.check(
        (s) => parseLargeAmount(s) !== undefined,
        'must be a positive amount ("10000", "2500.50")',
      ),
      v.transform((s) => parseLargeAmount(s) as string),
    ),
    fallback: DEFAULT_DUE_LARGE_AMOUNT,
  },
} as const satisfies Record<
  string,
  { env: string; flag: string; schema: v.GenericSchema<string, unknown>; fallback?: string }
>;

type Fields = typeof FIELDS;
type Parsed = { [K in keyof Fields]: v.InferOutput<Fields[K]["schema"]> | undefined };

/** The environment variable and flag of a setting, as error messages and docs name them. */
export function settingName(key: keyof Fields): string {
  return `${FIELDS[key].env} (--${FIELDS[key].flag})`;
}

/** Flag names loadConfig reads (commands pass the rest of their flags through unchecked). */
export const CONFIG_FLAGS: readonly string[] = Object.values(FIELDS).map((f) => f.flag);

/**
 * Reads and checks every setting. Flags win over the environment; an empty environment variable
 * counts as unset. `--data-dir` (or RECONCILER_DATA_DIR) wins over DATABASE_URL; with neither,
 * PGlite in .data/reconciler under `cwd`.
 */
export function loadConfig(
  env: Readonly<Record<string, string | undefined>>,
  flags: Readonly<Record<string, string | true>> = {},
  opts: { cwd?: string; breakClasses?: readonly string[] } = {},
): ReconcilerConfig {
  const issues: string[] = [];
  const parsed = {} as Record<string, unknown>;
  for (const [key, field] of Object.entries(FIELDS) as [keyof Fields, Fields[keyof Fields]][]) {
    const flag = flags[field.flag];
    if (flag === true) {
      issues.push(`${settingName(key)}: --${field.flag} needs a value`);
      continue;
    }
    const fromEnv = env[field.env] === "" ? undefined : env[field.env];
    const raw = flag ?? fromEnv ?? ("fallback" in field ? field.fallback : undefined);
    if (raw === undefined) continue;
    const result = v.safeParse(field.schema as v.GenericSchema<string, unknown>, raw);
    if (result.success) parsed[key] = result.output;
    else issues.push(`${settingName(key)}: ${result.issues[0]?.message ?? "is invalid"}`);
  }
  const p = parsed as Parsed;
  const ledgerQuery = readLedgerQuery(p, issues);
  const due = readDue(p, issues, opts.breakClasses);
  if (p.entities !== undefined && p.merchantNo !== undefined && p.entities.includes(p.merchantNo))
    issues.push(
      `${settingName("entities")}: must not name the merchant itself (MERCHANT_NO is always an entity)`,
    );
  if (issues.length > 0) throw new ConfigError(issues);
  const cwd = opts.cwd ?? process.cwd();
  // An explicit data folder beats an inherited DATABASE_URL (as openDatabase does).
  const database =
    p.dataDir !== undefined
      ? // "memory://" (PGlite in memory) is no path: resolved, it would be a folder "memory:".
        { dataDir: p.dataDir.includes("://") ? p.dataDir : resolve(cwd, p.dataDir) }
      : p.databaseUrl !== undefined
        ? { url: p.databaseUrl }
        : { dataDir: resolve(cwd, DEFAULT_DATA_DIR) };
  return {
    database,
    readDatabaseUrl: p.readDatabaseUrl,
    environment: p.environment,
    issuingApiKey: p.issuingApiKey,
    accountApiKey: p.accountApiKey,
    payoutSecretKey: p.payoutSecretKey,
    merchantNo: p.merchantNo,
    entities: p.entities ?? [],
    webhookSecret: p.webhookSecret,
    timestampUnit: p.timestampUnit ?? "ms",
    windowMs: p.windowMs as number,
    lookbackMs: p.lookbackMs as number,
    initialStart: p.initialStart as ReconcilerConfig["initialStart"],
    concurrency: p.concurrency as number,
    requestsPerSecond: p.requestsPerSecond as number,
    driftRetries: p.driftRetries as number,
    maxWindowAttempts: p.maxWindowAttempts as number,
    maxRetries: p.maxRetries as number,
    rereadScheduleMs: p.rereadScheduleMs as number[],
    rereadLimit: p.rereadLimit as number,
    followLimit: p.followLimit as number,
    cron: p.cron as string,
    ledgerDir: p.ledgerDir === undefined ? undefined : resolve(cwd, p.ledgerDir),
    ledgerQuery:
      ledgerQuery === undefined
        ? undefined
        : {
            url: p.ledgerDatabaseUrl as string,
            query: ledgerQuery,
            queryTimeoutMs: p.ledgerQueryTimeoutMs as number,
            complete: p.ledgerQueryComplete === true,
          },
    reportDir: p.reportDir === undefined ? undefined : resolve(cwd, p.reportDir),
    due,
  };
}

/** The due-date settings, the class names checked when `classes` are known. */
function readDue(p: Parsed, issues: string[], classes?: readonly string[]): DueSettings {
  const days = parseDueDays(p.dueDays ?? DEFAULT_DUE_DAYS, classes);
  if (typeof days === "string") {
    if (!issues.some((i) => i.startsWith(`${settingName("dueDays")}:`)))
      issues.push(`${settingName("dueDays")}: ${days}`);
    return DEFAULT_DUE;
  }
  return { ...days, largeAmount: p.dueLargeAmount ?? DEFAULT_DUE_LARGE_AMOUNT };
}

/** The ledger query's text (inline or from its file), checked to come with its database. */
function readLedgerQuery(p: Parsed, issues: string[]): string | undefined {
  if (p.ledgerQuery !== undefined && p.ledgerQueryFile !== undefined) {
    issues.push(`${settingName("ledgerQuery")}: give the query or its file, not both`);
    return undefined;
  }
  let query = p.ledgerQuery;
  if (p.ledgerQueryFile !== undefined) {
    try {
      query = readFileSync(p.ledgerQueryFile, "utf8").trim();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
      issues.push(`${settingName("ledgerQueryFile")}: cannot read the file (${code})`);
      return undefined;
    }
    if (query === "") issues.push(`${settingName("ledgerQueryFile")}: the file is empty`);
  }
  // Not when it was given but refused: its own rule names it already ("is required" beside
  // "is not a valid URL" would contradict it).
  const urlRefused = issues.some((i) => i.startsWith(`${settingName("ledgerDatabaseUrl")}:`));
  if (query !== undefined && p.ledgerDatabaseUrl === undefined && !urlRefused)
    issues.push(`${settingName("ledgerDatabaseUrl")}: is required with a ledger query`);
  if (query === undefined && p.ledgerDatabaseUrl !== undefined)
    issues.push(
      `${settingName("ledgerQuery")}: is required with LEDGER_DATABASE_URL (or --ledger-query-file)`,
    );
  return query;
}

/**
 * Checks that the settings a command needs are there (loadConfig leaves credentials optional,
 * since `migrate` and `status` need none).
 */
export function requireSettings(
  config: ReconcilerConfig,
  needed: readonly (
    | "environment"
    | "issuingApiKey"
    | "accountApiKey"
    | "payoutSecretKey"
    | "merchantNo"
    | "webhookSecret"
  )[],
): void {
  const missing = needed.filter((key) => config[key] === undefined);
  if (missing.length > 0)
    throw new ConfigError(missing.map((key) => `${settingName(key)}: is required`));
}
