// `reconciler breaks accept|reopen|comment|assign|unassign ID ...`: finance's actions on a
// break, each appending one audit row. The actor comes from --as NAME or RECONCILER_ACTOR.
// accept --amount "AMOUNT [CURRENCY]" and --class CLASS name what the person saw (breaks
// list/show): a match run that changed it since makes the accept refused (exit 2) instead of
// accepting unseen figures. What is typed is checked before the database is opened
// (typed-text.ts: names normalised, control characters refused naming the flag).
import * as v from "valibot";
import { EXIT } from "../../exit-codes";
import { BREAK_CLASSES } from "../../match/break-classes";
import {
  applyBreakAction,
  type BreakAction,
  type BreakActionInput,
  checkActionInput,
  type SeenBreak,
} from "../../workflow/break-actions";
import { shownAmount } from "../../workflow/queue-search";
import { WorkflowError } from "../../workflow/workflow-error";
import type { Command, ParsedArgs } from "../command";
import { commandFlags, printOutcome, runOnDatabase } from "../command-support";
import { UsageError } from "../parse-args";

interface ActionSpec {
  action: BreakAction;
  summary: string;
  /** After the id: what the command reads from the line (shown in the usage). */
  rest: string;
  /** The action's text from the flags and the words after the id. */
  text(flags: { reason?: string | undefined }, words: string[]): string | undefined;
}

const name = v.pipe(v.string("needs a name"), v.minLength(1, "needs a name"));

/** Where the CLI takes each field of the input from, named in its errors. */
const FROM: Record<string, string> = {
  actor: "--as",
  reason: "--reason",
  comment: "TEXT",
  assignee: "NAME",
  amount: "--amount",
  class: "--class",
  breakId: "ID",
  text: "TEXT",
};

/**
 * Runs `check` (a workflow function's own input check), its errors naming the flag or word the
 * field came from (`from`: field → flag).
 */
export function withFlagNames<T>(check: () => T, from: Record<string, string> = FROM): T {
  try {
    return check();
  } catch (error) {
    const flag = error instanceof WorkflowError && error.field ? from[error.field] : undefined;
    if (!(error instanceof WorkflowError) || flag === undefined) throw error;
    throw new WorkflowError(error.code, `${flag}: ${error.message}`, error.field);
  }
}

/** The input checked as applyBreakAction checks it, errors naming the flag or word it came from. */
const checkedInput = (input: BreakActionInput) => withFlagNames(() => checkActionInput(input));

function actionCommand(spec: ActionSpec): Command {
  const usage = `reconciler breaks ${spec.action} ID${spec.rest} --as NAME   (or RECONCILER_ACTOR=NAME)`;
  return {
    name: `breaks ${spec.action}`,
    summary: spec.summary,
    usage,
    run(args: ParsedArgs, io) {
      const check = () => {
        const flags = commandFlags(
          args,
          {
            as: v.optional(name),
            ...(spec.action === "accept"
              ? {
                  reason: v.optional(v.string("needs the reason")),
                  amount: v.optional(shownAmount),
                  class: v.optional(
                    v.picklist(BREAK_CLASSES, `must be one of ${BREAK_CLASSES.join(", ")}`),
                  ),
                }
              : {}),
          },
          { positional: true },
        );
        const [breakId, ...words] = args.positional;
        if (!breakId) throw new UsageError(`breaks ${spec.action} needs the break id`);
        const seen: SeenBreak = {
          printed: flags.amount as SeenBreak["printed"],
          class: flags.class as string | undefined,
        };
        return checkedInput({
          breakId,
          action: spec.action,
          actor: flags.as ?? io.env.RECONCILER_ACTOR ?? "",
          text: spec.text({ reason: flags.reason as string | undefined }, words),
          seen: Object.values(seen).some((x) => x !== undefined) ? seen : undefined,
        });
      };
      return runOnDatabase(args, io, usage, check, async ({ db }, input) => {
        const { breakId } = input;
        const result = await applyBreakAction(db, input);
        printOutcome(
          io,
          `${spec.action} ${breakId}: now ${result.status}${result.assignee ? `, assigned to ${result.assignee}` : ""} (audit row ${result.actionId})`,
          { msg: `break ${spec.action}`, ...result },
        );
        return EXIT.ok;
      });
    },
  };
}

const none = (words: string[]) => {
  if (words.length > 0) throw new UsageError(`unexpected words: ${words.join(" ")}`);
  return undefined;
};

export const breaksAcceptCommand = actionCommand({
  action: "accept",
  summary: "accept a break's difference with a reason (it leaves the open queue)",
  rest: ' --reason TEXT [--amount "AMOUNT [CURRENCY]"] [--class CLASS]',
  text: (flags, words) => {
    none(words);
    return flags.reason;
  },
});

export const breaksReopenCommand = actionCommand({
  action: "reopen",
  summary: "reopen an accepted break",
  rest: "",
  text: (_, words) => none(words),
});

export const breaksCommentCommand = actionCommand({
  action: "comment",
  summary: "add a comment to a break's history",
  rest: " TEXT",
  text: (_, words) => words.join(" "),
});

export const breaksAssignCommand = actionCommand({
  action: "assign",
  summary: "assign a break to a person",
  rest: " NAME",
  text: (_, words) => {
    if (words.length > 1) throw new UsageError("assign takes one name (quote a name with spaces)");
    return words[0];
  },
});

export const breaksUnassignCommand = actionCommand({
  action: "unassign",
  summary: "take a break back from its assignee",
  rest: "",
  text: (_, words) => none(words),
});
