// What the `breaks` commands share: opening the configured database around the work, and
// turning workflow errors into messages and exit codes (unknown id, bad input and a break
// someone else changed meanwhile all exit 2: nothing was done).
import type { ReconcilerConfig } from "../../config/reconciler-config";
import type { Database } from "../../db/database";
import { EXIT } from "../../exit-codes";
import { terminalText } from "../../text-table";
import { WorkflowError } from "../../workflow/workflow-error";
import type { CommandIo, ParsedArgs } from "../command";
import { configOf, openConfiguredDatabase, reportError } from "../command-support";

/**
 * Checks the command line (`check`: flags and words, before anything is opened), then runs
 * `work` on the configured database; answers the exit code, errors reported.
 */
export async function runOnBreaks<T>(
  args: ParsedArgs,
  io: CommandIo,
  usage: string,
  check: () => T,
  work: (database: Database, checked: T, config: ReconcilerConfig) => Promise<number>,
): Promise<number> {
  try {
    const checked = check();
    const config = configOf(args, io);
    const database = await openConfiguredDatabase(config);
    try {
      return await work(database, checked, config);
    } finally {
      await database.close();
    }
  } catch (error) {
    if (error instanceof WorkflowError) {
      // It can quote what someone else typed ("already accepted (by NAME ...").
      io.err(`reconciler: ${terminalText(error.message)}`);
      return EXIT.usage;
    }
    return reportError(io, error, usage);
  }
}

/** "2026-05-03" or "2026-05-03 overdue": an open break's due day (UTC), "-" for any other. */
export function dueText(b: { dueAt: string | null; overdue: boolean }): string {
  if (!b.dueAt) return "-";
  return `${b.dueAt.slice(0, 10)}${b.overdue ? " overdue" : ""}`;
}
