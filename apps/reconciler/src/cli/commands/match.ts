// `reconciler match`: re-match without touching the provider (no credentials needed) — after
// correcting the ledger, say. Takes in the configured ledger sources, matches, writes the
// report: `reconciler run --no-sync` under a name of its own.

import type { Command } from "../command";
import { MATCH_USAGE } from "../match-flags";
import { runCommand } from "./run";

export const matchCommand: Command = {
  name: "match",
  summary: "ledger sources in, match and report, without syncing (no provider credentials needed)",
  usage: `reconciler match [--ledger-dir DIR] [--report-dir DIR] ${MATCH_USAGE}`,
  run: (args, io) => runCommand.run({ ...args, flags: { ...args.flags, "no-sync": true } }, io),
};
