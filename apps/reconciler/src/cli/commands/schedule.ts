// `reconciler schedule`: the whole cycle (ledger in, sync, match, report) on the configured cron
// expression until stopped. node-cron's noOverlap skips a tick while the previous cycle is still
// going (one process); advisory locks keep other processes off the same stream and the ledger
// folder. SIGTERM/SIGINT let the current window finish and commit, then the command returns.
// A failed cycle is reported by its summary line and the schedule goes on, also when the database
// cannot be reached at start: each tick tries to open it, and fails with its summary line while
// it is away. A configuration the cycle cannot use (say, the sync without its credentials) stops
// it before the first tick, with exit 2 like `run`: every tick would fail the same way.
import { schedule } from "node-cron";
import { describeConfig } from "../../config/describe-config";
import type { Database, Db } from "../../db/database";
import { openReopening, type ReopeningDatabase } from "../../db/reopening-database";
import { EXIT } from "../../exit-codes";
import { logEvent } from "../../log-event";
import { errorText } from "../../store/error-text";
import type { SyncContext } from "../../sync/run-sync";
import { createSyncContext } from "../../sync/sync-context";
import type { Command } from "../command";
import {
  commandFlags,
  configOf,
  openConfiguredDatabase,
  reportError,
  untilStopped,
} from "../command-support";
import { logSink } from "../log-sink";
import { MATCH_FLAGS, MATCH_TUNING_USAGE, matchOptionsOf } from "../match-flags";
import { SWITCH, UsageError } from "../parse-args";
import { cycleOnce, reportedCycle } from "./cycle-command";
import { SYNC_FLAGS } from "./sync-run";

const usage = `reconciler schedule [--cron "*/15 * * * *"] [--stream NAME[,NAME]] [--run-now] [--no-sync] [--ledger-dir DIR] [--ledger-query-file FILE] [--report-dir DIR] ${MATCH_TUNING_USAGE}`;

// No --as-of: one instant for every tick would stop grace periods and ages moving, tick after
// tick. Refused by name with the reason (as an unknown flag it would say nothing of why).
const { "as-of": _asOf, ...SCHEDULE_MATCH_FLAGS } = MATCH_FLAGS;
const AS_OF_REFUSED =
  "--as-of is not for schedule: it would freeze every tick's as-of (grace periods and ages would stop moving); each tick matches as of its own time. Use --as-of with run or match";

export const scheduleCommand: Command = {
  name: "schedule",
  summary: "the whole cycle on a cron schedule until stopped (SIGTERM finishes the current window)",
  usage,
  async run(args, io) {
    try {
      if ("as-of" in args.flags) throw new UsageError(AS_OF_REFUSED);
      const flags = commandFlags(args, {
        ...SCHEDULE_MATCH_FLAGS,
        stream: SYNC_FLAGS.stream,
        "run-now": SWITCH,
        "no-sync": SWITCH,
      });
      const config = configOf(args, io);
      const log = logSink(io);
      // The sync context checks its settings (ConfigError → exit 2) before anything runs; that
      // needs no database (this one is never used), so it holds with the database away too.
      if (!flags["no-sync"]) createSyncContext(config, {} as Db, { log });
      const reopened = () => logEvent({ log }, "info", "database reopened");
      const openIt = () => openReopening(() => openConfiguredDatabase(config), reopened);
      // Not opened at start (the server down, a failover under way, a PGlite folder another
      // process holds): the schedule starts all the same, and each tick tries again
      // (docs/reconciler.md, failure modes).
      let database: ReopeningDatabase | undefined;
      try {
        database = await openIt();
      } catch (error) {
        logEvent({ log }, "error", "database could not be opened at start; each tick tries again", {
          error: errorText(error),
        });
      }
      const currentDatabase = async (): Promise<Database> => {
        if (!database) {
          database = await openIt();
          reopened();
        }
        return database.current();
      };
      // A sync context per database: a reopened one gets its own.
      const syncs = new WeakMap<Database, SyncContext | undefined>();
      const syncOf = (open: Database) => {
        if (flags["no-sync"]) return undefined;
        if (!syncs.has(open)) syncs.set(open, createSyncContext(config, open.db, { log }));
        return syncs.get(open);
      };
      try {
        logEvent({ log }, "info", "schedule started", describeConfig(config));
        let running: Promise<unknown> = Promise.resolve();
        let inProgress = false;
        const tick = () => {
          if (io.signal.aborted) return;
          // One cycle at a time, here (node-cron's noOverlap would not count the --run-now
          // execution, and prints text): a tick during a cycle would find everything busy.
          if (inProgress) {
            logEvent({ log }, "info", "tick skipped: the previous cycle is still running");
            return;
          }
          inProgress = true;
          // A database the server dropped is reopened here; while the server is still away
          // the tick fails and a later one tries again.
          const run = reportedCycle(io, log, async () => {
            const open = await currentDatabase();
            return cycleOnce(io, {
              config,
              database: open,
              sync: syncOf(open),
              syncOptions: { kind: "schedule", streams: flags.stream },
              // A fresh "now" per tick: grace periods move on with the clock.
              match: matchOptionsOf(flags),
            });
          }).finally(() => {
            inProgress = false;
          });
          running = run;
          return run;
        };
        // node-cron's own notices (a missed tick) as the worker's JSON lines: its default logger
        // writes coloured text to stderr. No noOverlap: the guard above skips a tick with a
        // JSON line of its own, where node-cron's would print its text instead.
        const cronLog = (level: "info" | "warn" | "error") => (message: string | Error) =>
          logEvent(
            { log },
            level,
            `node-cron: ${message instanceof Error ? message.message : message}`,
          );
        const task = schedule(config.cron, tick, {
          name: "reconciler-cycle",
          logger: {
            info: cronLog("info"),
            warn: cronLog("warn"),
            error: cronLog("error"),
            debug: () => {},
          },
        });
        if (flags["run-now"]) await task.execute();
        await untilStopped(io.signal);
        await task.stop();
        await task.destroy();
        // The cycle in progress sees the same signal: it finishes its windows and returns.
        await running;
        logEvent({ log }, "info", "schedule stopped");
        return EXIT.ok;
      } finally {
        await database?.close();
      }
    } catch (error) {
      return reportError(io, error, usage);
    }
  },
};
