// What `sync` and `backfill` share: open the database, build the clients, run runSync with
// progress and logs, print the summary and answer the exit code.
import * as v from "valibot";
import { describeConfig } from "../../config/describe-config";
import { formatSeconds } from "../../format-seconds";
import { logEvent } from "../../log-event";
import { exitCodeOf } from "../../sync/exit-code";
import { runSync } from "../../sync/run-sync";
import { createSyncContext } from "../../sync/sync-context";
import {
  isStreamName,
  STREAM_NAMES,
  type StreamName,
  type SyncSummary,
} from "../../sync/sync-types";
import { table } from "../../text-table";
import type { CommandIo, ParsedArgs } from "../command";
import { commandFlags, isoDate, runOnDatabase } from "../command-support";
import { logSink } from "../log-sink";
import { UsageError } from "../parse-args";
import { progressPrinter } from "../progress";

const streamList = v.pipe(
  v.string("needs a value"),
  v.transform((s) => s.split(",").map((x) => x.trim())),
  v.check(
    (list) => list.every(isStreamName),
    `must name streams: ${STREAM_NAMES.join(", ")} (comma-separated)`,
  ),
  v.transform((list) => list as StreamName[]),
);

export const SYNC_FLAGS = {
  stream: v.optional(streamList),
  from: v.optional(isoDate),
  to: v.optional(isoDate),
};

/** The summary: a table on a TTY, one JSON line otherwise. */
export function printSummary(io: CommandIo, summary: SyncSummary): void {
  if (!io.isTty) {
    io.out(JSON.stringify({ msg: "sync finished", ...summary }));
    return;
  }
  const rows = Object.entries(summary.streams).map(([stream, s]) => [
    stream,
    s?.outcome ?? "",
    String(s?.windows ?? 0),
    String(s?.recordsSeen ?? 0),
    String(s?.inserted ?? 0),
    String(s?.updated ?? 0),
    String(s?.unchanged ?? 0),
    String(s?.skippedDowngrades ?? 0),
    String(s?.failedWindows ?? 0),
    s?.lagSeconds == null ? "-" : `${Math.round(s.lagSeconds)}s`,
  ]);
  io.out(
    table(
      [
        "stream",
        "outcome",
        "windows",
        "seen",
        "new",
        "updated",
        "same",
        "no-downgr",
        "failed",
        "lag",
      ],
      rows,
    ),
  );
  io.out(
    `${summary.outcome}${summary.interrupted ? " (stopped by signal)" : ""} in ${formatSeconds(summary.seconds)}`,
  );
  if (summary.unread === null)
    io.out(
      "unread: unknown — a stream could not tell what it left unread (its error is above); reconciler status tells once the database answers",
    );
  else if (summary.unread.count > 0)
    io.out(
      `unread: ${summary.unread.count} window(s)/serviceId(s) since ${summary.unread.since} — the tables miss these records until a run reads them (reconciler status)`,
    );
}

export function runSyncCommand(
  args: ParsedArgs,
  io: CommandIo,
  opts: { backfill: boolean; usage: string },
): Promise<number> {
  const check = () => {
    const flags = commandFlags(args, SYNC_FLAGS);
    if (opts.backfill && (!flags.from || !flags.to))
      throw new UsageError("backfill needs both --from and --to");
    // --from alone reads up to now; --to alone has no start.
    if (flags.to && !flags.from) throw new UsageError("--to needs --from");
    if (flags.from && flags.to && flags.from >= flags.to)
      throw new UsageError("--from must be before --to");
    return flags;
  };
  return runOnDatabase(args, io, opts.usage, check, async (database, flags, config) => {
    const log = logSink(io);
    const ctx = createSyncContext(config, database.db, { log });
    logEvent({ log }, "info", "config", describeConfig(config));
    const summary = await runSync(ctx, {
      streams: flags.stream,
      from: flags.from,
      to: flags.to,
      backfill: opts.backfill,
      signal: io.signal,
      onProgress: io.isTty ? progressPrinter((line) => io.err(line)) : undefined,
    });
    printSummary(io, summary);
    return exitCodeOf(summary);
  });
}
