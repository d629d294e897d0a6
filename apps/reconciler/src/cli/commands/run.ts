// `reconciler run`: sync every stream once, then match once, and print the verdict.

import { matchResultLines } from "../../match/format-result";
import { MATCH_FLAGS, MATCH_USAGE, matchOptionsOf } from "../../match/match-flags";
import { runMatch } from "../../match/run-match";
import { runSync } from "../../sync/run-sync";
import { createSyncContext } from "../../sync/sync-context";
import type { Command } from "../command";
import { commandFlags, configOf, openConfiguredDatabase, reportError } from "../command-support";
import { EXIT } from "../exit-codes";
import { logSink } from "../log-sink";
import { progressPrinter } from "../progress";
import { printSummary } from "./sync-run";

const usage = `reconciler run ${MATCH_USAGE}`;

export const runCommand: Command = {
  name: "run",
  summary: "sync, then match against the ledger once; prints the verdict (exit 3 when incomplete)",
  usage,
  async run(args, io) {
    try {
      const flags = commandFlags(args, MATCH_FLAGS);
      const config = configOf(args, io);
      const database = await openConfiguredDatabase(config);
      try {
        const ctx = createSyncContext(config, database.db, { log: logSink(io) });
        const summary = await runSync(ctx, {
          signal: io.signal,
          onProgress: io.isTty ? progressPrinter((line) => io.err(line)) : undefined,
        });
        printSummary(io, summary);
        if (io.signal.aborted) return EXIT.partial;
        const result = await runMatch(database.db, matchOptionsOf(flags));
        for (const line of matchResultLines(result, io.isTty)) io.out(line);
        if (summary.outcome === "failed") return EXIT.failed;
        return result.verdict === "incomplete" ? EXIT.partial : EXIT.ok;
      } finally {
        await database.close();
      }
    } catch (error) {
      return reportError(io, error, usage);
    }
  },
};
