// One structured log line: {"time","level","msg",...fields} as JSON, handed to ctx.log.

type LogLevel = "info" | "warn" | "error";

export function logEvent(
  ctx: { log: (line: string) => void },
  level: LogLevel,
  msg: string,
  fields: Record<string, unknown> = {},
): void {
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }, (_k, v) =>
    v instanceof Date ? v.toISOString() : v,
  );
  ctx.log(line);
}
