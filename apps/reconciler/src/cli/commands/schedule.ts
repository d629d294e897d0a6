// `reconciler schedule`: runs the sync on the configured cron expression until stopped.
// node-cron's noOverlap skips a tick while the previous run is still going (one process); the
// streams' advisory locks keep other processes off the same stream. SIGTERM/SIGINT let the
// current window finish and commit, then the command returns.
import { schedule } from "node-cron";
import * as v from "valibot";
import { describeConfig } from "../../config/describe-config";
import { logEvent } from "../../sync/log-event";
import { runSync } from "../../sync/run-sync";
import { createSyncContext } from "../../sync/sync-context";
import type { Command } from "../command";
import { commandFlags, configOf, openConfiguredDatabase, reportError } from "../command-support";
import { EXIT } from "../exit-codes";
import { logSink } from "../log-sink";
import { printSummary, SYNC_FLAGS } from "./sync-run";

const usage = 'reconciler schedule [--cron "*/15 * * * *"] [--stream NAME[,NAME]] [--run-now]';

export const scheduleCommand: Command = {
  name: "schedule",
  summary: "sync on a cron schedule until stopped (SIGTERM finishes the current window)",
  usage,
  async run(args, io) {
    try {
      const flags = commandFlags(args, {
        stream: SYNC_FLAGS.stream,
        "run-now": v.optional(v.literal(true, "takes no value")),
      });
      const config = configOf(args, io);
      const log = logSink(io);
      const database = await openConfiguredDatabase(config);
      try {
        const ctx = createSyncContext(config, database.db, { log });
        logEvent(ctx, "info", "schedule started", describeConfig(config));
        let running: Promise<unknown> = Promise.resolve();
        const tick = () => {
          if (io.signal.aborted) return;
          const run = runSync(ctx, { streams: flags.stream, kind: "schedule", signal: io.signal })
            .then((summary) => printSummary(io, summary))
            .catch((error: unknown) =>
              logEvent(ctx, "error", "scheduled run failed", { error: String(error) }),
            );
          running = run;
          return run;
        };
        const task = schedule(config.cron, tick, { noOverlap: true, name: "reconciler-sync" });
        if (flags["run-now"]) await task.execute();
        await new Promise<void>((resolve) => {
          if (io.signal.aborted) resolve();
          else io.signal.addEventListener("abort", () => resolve(), { once: true });
        });
        await task.stop();
        await task.destroy();
        // The run in progress sees the same signal: it finishes its windows and returns.
        await running;
        logEvent(ctx, "info", "schedule stopped");
        return EXIT.ok;
      } finally {
        await database.close();
      }
    } catch (error) {
      return reportError(io, error, usage);
    }
  },
};
