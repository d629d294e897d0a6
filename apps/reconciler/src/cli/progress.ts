// Progress of a long run for a person at a terminal: at most one line a second with each
// stream's windows done and left, records read and records per second.
import type { StreamName, SyncProgress } from "../sync/sync-types";

export function progressPrinter(
  print: (line: string) => void,
  opts: { intervalMs?: number; now?: () => number } = {},
): (p: SyncProgress) => void {
  const interval = opts.intervalMs ?? 1_000;
  const now = opts.now ?? Date.now;
  const latest = new Map<StreamName, SyncProgress>();
  let last = 0;
  return (p) => {
    latest.set(p.stream, p);
    const t = now();
    const finished = p.windowsTotal > 0 && p.windowsDone === p.windowsTotal;
    if (t - last < interval && !finished) return;
    last = t;
    const parts = [...latest.values()].map((s) => {
      const rate = s.elapsedMs > 0 ? Math.round((s.recordsSeen / s.elapsedMs) * 1000) : 0;
      const left = Math.max(0, s.windowsTotal - s.windowsDone);
      return `${s.stream} ${s.windowsDone}/${s.windowsTotal} windows (${left} left), ${s.recordsSeen.toLocaleString("en-US")} records, ${rate.toLocaleString("en-US")}/s`;
    });
    print(parts.join(" | "));
  };
}
