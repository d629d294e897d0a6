// `reconciler run`: one whole cycle — take in new ledger entries from the configured sources,
// sync the four streams, match, write the report — with one JSON summary line and an exit
// code that says how it went. `--no-sync` leaves the provider alone (no credentials needed).

import { createSyncContext } from "../../sync/sync-context";
import type { Command } from "../command";
import { commandFlags, configOf, openConfiguredDatabase, reportError } from "../command-support";
import { logSink } from "../log-sink";
import { MATCH_FLAGS, MATCH_USAGE, matchOptionsOf } from "../match-flags";
import { SWITCH } from "../parse-args";
import { progressPrinter } from "../progress";
import { cycleOnce, reportedCycle } from "./cycle-command";

const usage = `reconciler run [--no-sync] [--ledger-dir DIR] [--ledger-query-file FILE] [--report-dir DIR] ${MATCH_USAGE}`;

export const runCommand: Command = {
  name: "run",
  summary:
    "one cycle: ledger sources in, sync, match, report; one JSON summary line (exit 0 only when all of it is done)",
  usage,
  async run(args, io) {
    try {
      const flags = commandFlags(args, {
        ...MATCH_FLAGS,
        "no-sync": SWITCH,
      });
      const config = configOf(args, io);
      // A database that cannot be opened still ends with the summary line (verdict "failed").
      return await reportedCycle(
        io,
        logSink(io),
        async () => {
          const database = await openConfiguredDatabase(config);
          try {
            return await cycleOnce(io, {
              config,
              database,
              sync: flags["no-sync"]
                ? undefined
                : createSyncContext(config, database.db, { log: logSink(io) }),
              syncOptions: {
                onProgress: io.isTty ? progressPrinter((line) => io.err(line)) : undefined,
              },
              match: matchOptionsOf(flags),
            });
          } finally {
            await database.close();
          }
        },
        "cycle failed",
      );
    } catch (error) {
      return reportError(io, error, usage);
    }
  },
};
