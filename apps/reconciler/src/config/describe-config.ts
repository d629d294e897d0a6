// describeConfig: the configuration as lines safe to print or log (secrets and URL passwords
// redacted), for `reconciler help`, startup logs and `status`.
import { formatDuration } from "./durations";
import type { ReconcilerConfig } from "./reconciler-config";

const REDACTED = "[REDACTED]";

/** A database URL with its password replaced, or "[unreadable URL]" when it does not parse. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    // A placeholder URL encoding leaves alone, then the marker the docs show: set directly,
    // "[REDACTED]" would come out as "%5BREDACTED%5D".
    const mark = "REDACTED0MARK";
    if (parsed.password) parsed.password = mark;
    for (const key of [...parsed.searchParams.keys()])
      if (/pass|secret|token|key/i.test(key)) parsed.searchParams.set(key, mark);
    return parsed.toString().replaceAll(mark, REDACTED);
  } catch {
    return "[unreadable URL]";
  }
}

const secret = (value: string | undefined) => (value === undefined ? "(unset)" : REDACTED);

/** Every setting with a printable value; no secret ever appears in it. */
export function describeConfig(config: ReconcilerConfig): Record<string, string> {
  const env = config.environment;
  return {
    database: config.database.url
      ? `postgres ${redactUrl(config.database.url)}`
      : `pglite ${config.database.dataDir ?? "(default)"}`,
    readDatabase: config.readDatabaseUrl
      ? `postgres ${redactUrl(config.readDatabaseUrl)} (read-only: report)`
      : "(the database)",
    environment:
      env === undefined
        ? "(unset)"
        : typeof env === "string"
          ? env
          : "origin" in env
            ? String(env.origin)
            : "custom base URLs",
    issuingApiKey: secret(config.issuingApiKey),
    accountApiKey: secret(config.accountApiKey),
    payoutSecretKey: secret(config.payoutSecretKey),
    webhookSecret: secret(config.webhookSecret),
    merchantNo: config.merchantNo ?? "(unset)",
    entities: config.entities.length === 0 ? "(the merchant alone)" : config.entities.join(","),
    timestampUnit: config.timestampUnit,
    window: formatDuration(config.windowMs),
    lookback: formatDuration(config.lookbackMs),
    initialStart:
      "at" in config.initialStart
        ? config.initialStart.at.toISOString()
        : `${formatDuration(config.initialStart.agoMs)} before the first run`,
    concurrency: String(config.concurrency),
    requestsPerSecond: String(config.requestsPerSecond),
    driftRetries: String(config.driftRetries),
    maxWindowAttempts: String(config.maxWindowAttempts),
    maxRetries: String(config.maxRetries),
    reread:
      config.rereadScheduleMs.length === 0
        ? "off"
        : config.rereadScheduleMs.map(formatDuration).join(","),
    rereadLimit: String(config.rereadLimit),
    followLimit: String(config.followLimit),
    cron: config.cron,
  };
}
