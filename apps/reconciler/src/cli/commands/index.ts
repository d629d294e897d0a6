// The command registry: every `reconciler` command, found by name ("ledger import" by its two
// words). Sync commands live here; ledger, run, report and demo come from the matching work.
import type { Command } from "../command";
import { backfillCommand } from "./backfill";
import {
  breaksAcceptCommand,
  breaksAssignCommand,
  breaksCommentCommand,
  breaksReopenCommand,
  breaksUnassignCommand,
} from "./breaks-act";
import { breaksConfirmCommand, breaksRejectCommand } from "./breaks-decide";
import { breaksListCommand } from "./breaks-list";
import { breaksMatchCommand, breaksUnmatchCommand } from "./breaks-match";
import { breaksShowCommand } from "./breaks-show";
import { breaksWriteOffCommand } from "./breaks-write-off";
import { consoleCommand } from "./console";
import { demoCommand } from "./demo";
import { exportCommand } from "./export";
import { ledgerImportCommand } from "./ledger-import";
import { matchCommand } from "./match";
import { migrateCommand } from "./migrate";
import { reportCommand } from "./report";
import { runCommand } from "./run";
import { scheduleCommand } from "./schedule";
import { statusCommand } from "./status";
import { syncCommand } from "./sync";
import {
  usersAddCommand,
  usersDisableCommand,
  usersListCommand,
  usersResetPasswordCommand,
  usersSetEntitiesCommand,
} from "./users";
import { webhooksCommand } from "./webhooks";
import { windowsCommand, windowsGiveUpCommand } from "./windows";

export const commands: readonly Command[] = [
  migrateCommand,
  syncCommand,
  backfillCommand,
  scheduleCommand,
  statusCommand,
  windowsCommand,
  windowsGiveUpCommand,
  webhooksCommand,
  ledgerImportCommand,
  runCommand,
  matchCommand,
  reportCommand,
  breaksListCommand,
  breaksShowCommand,
  breaksAcceptCommand,
  breaksReopenCommand,
  breaksCommentCommand,
  breaksAssignCommand,
  breaksUnassignCommand,
  breaksWriteOffCommand,
  breaksConfirmCommand,
  breaksRejectCommand,
  breaksMatchCommand,
  breaksUnmatchCommand,
  exportCommand,
  consoleCommand,
  usersAddCommand,
  usersListCommand,
  usersDisableCommand,
  usersResetPasswordCommand,
  usersSetEntitiesCommand,
  demoCommand,
];

/** The command named by the first one or two words, and the words left after its name. */
export function findCommand(
  words: readonly string[],
): { command: Command; rest: string[] } | undefined {
  const [first, second] = words;
  if (first === undefined) return undefined;
  const two = commands.find((c) => second !== undefined && c.name === `${first} ${second}`);
  if (two) return { command: two, rest: words.slice(2) };
  const one = commands.find((c) => c.name === first);
  return one ? { command: one, rest: words.slice(1) } : undefined;
}
