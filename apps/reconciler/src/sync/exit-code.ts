// The exit code a sync run's summary calls for (docs/reconciler.md, "Exit codes").
import { EXIT } from "../exit-codes";
import type { SyncSummary } from "./sync-types";

/**
 * failed → 1; stopped by a signal → 4 (what the stop left unread — the serviceIds its operation
 * records queued, say — the next run reads; `status` says what); any other data left unread
 * (failed windows, due serviceIds, a range another worker held) → 3, also when the run itself
 * read everything it tried.
 */
export function exitCodeOf(summary: SyncSummary): number {
  if (summary.outcome === "failed") return EXIT.failed;
  // Before the unread count: a stop leaves serviceIds due by itself, and a deploy or node drain
  // must exit 4, not 3 (data unread), which alerts.
  if (summary.interrupted) return EXIT.stopped;
  if (summary.unread === null || summary.unread.count > 0) return EXIT.unread;
  if (summary.outcome === "partial") return EXIT.unread;
  return EXIT.ok;
}
