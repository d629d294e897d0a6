// Where the sync's structured log lines go: as they are (JSON lines) when the output is not a
// terminal, turned into short readable lines on a TTY.
import type { CommandIo } from "./command";

function readable(line: string): string {
  let event: Record<string, unknown>;
  try {
    event = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const { time, level, msg, ...fields } = event;
  const clock = typeof time === "string" ? time.slice(11, 19) : "";
  const mark = level === "error" ? "✗" : level === "warn" ? "!" : "·";
  const rest = Object.entries(fields)
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(" ");
  return `${clock} ${mark} ${String(msg)}${rest ? `  ${rest}` : ""}`;
}

/** A `log` for SyncContext: JSON lines to stderr, readable text on a TTY. */
export function logSink(io: CommandIo): (line: string) => void {
  return io.isTty ? (line) => io.err(readable(line)) : (line) => io.err(line);
}
