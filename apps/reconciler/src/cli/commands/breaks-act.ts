// `reconciler breaks accept|reopen|comment|assign|unassign ID ...`: finance's actions on a
// break, each appending one audit row. The actor comes from --as NAME or RECONCILER_ACTOR.
// accept --amount AMOUNT names the amount the person saw (breaks list/show): a match run that
// changed it since makes the accept refused (exit 2) instead of accepting unseen figures.
import * as v from "valibot";
import { terminalText } from "../../text-table";
import { applyBreakAction, type BreakAction } from "../../workflow/break-actions";
import { WorkflowError } from "../../workflow/workflow-error";
import type { Command, ParsedArgs } from "../command";
import { commandFlags } from "../command-support";
import { EXIT } from "../exit-codes";
import { UsageError } from "../parse-args";
import { runOnBreaks } from "./breaks-support";

interface ActionSpec {
  action: BreakAction;
  summary: string;
  /** After the id: what the command reads from the line (shown in the usage). */
  rest: string;
  /** The action's text from the flags and the words after the id. */
  text(flags: { reason?: string | undefined }, words: string[]): string | undefined;
}

const name = v.pipe(v.string("needs a name"), v.minLength(1, "needs a name"));

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
                  amount: v.optional(v.string("needs the amount shown")),
                }
              : {}),
          },
          { positional: true },
        );
        const [breakId, ...words] = args.positional;
        if (!breakId) throw new UsageError(`breaks ${spec.action} needs the break id`);
        const actor = flags.as ?? io.env.RECONCILER_ACTOR ?? "";
        if (actor.trim() === "")
          throw new WorkflowError(
            "invalid",
            "actor is required: --as NAME or RECONCILER_ACTOR (who acts goes into the audit trail)",
            "actor",
          );
        const amount = flags.amount as string | undefined;
        return {
          breakId,
          actor,
          text: spec.text({ reason: flags.reason as string | undefined }, words),
          seen: amount === undefined ? undefined : { amount },
        };
      };
      return runOnBreaks(args, io, usage, check, async ({ db }, { breakId, actor, text, seen }) => {
        const input = { breakId, action: spec.action, actor, text, seen };
        const result = await applyBreakAction(db, input);
        io.out(
          io.isTty
            ? terminalText(
                `${spec.action} ${breakId}: now ${result.status}${result.assignee ? `, assigned to ${result.assignee}` : ""} (audit row ${result.actionId})`,
              )
            : JSON.stringify({ msg: `break ${spec.action}`, ...result }),
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
  rest: " --reason TEXT [--amount AMOUNT]",
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
