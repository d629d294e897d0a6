// `reconciler breaks confirm ID [--reason TEXT]` and `reconciler breaks reject ID --reason TEXT`:
// finance's decision on a proposed_match break (workflow/decide-proposal.ts), applied by the next
// match run. What is typed is checked before the database is opened; errors name the flag.
import * as v from "valibot";
import { EXIT } from "../../exit-codes";
import {
  checkDecisionInput,
  decideProposal,
  type ProposalDecision,
} from "../../workflow/decide-proposal";
import type { Command } from "../command";
import { commandFlags, oneWord, printOutcome, runOnDatabase } from "../command-support";
import { withFlagNames } from "./breaks-act";

function decideCommand(decision: ProposalDecision, summary: string): Command {
  const reason = decision === "reject" ? " --reason TEXT" : " [--reason TEXT]";
  const usage = `reconciler breaks ${decision} ID${reason} --as NAME   (or RECONCILER_ACTOR=NAME)`;
  return {
    name: `breaks ${decision}`,
    summary,
    usage,
    run(args, io) {
      const check = () => {
        const flags = commandFlags(
          args,
          {
            as: v.optional(v.string("needs a name")),
            reason: v.optional(v.string("needs the reason")),
          },
          { positional: true },
        );
        const breakId = oneWord(args, `breaks ${decision} needs the break id`);
        return withFlagNames(
          () =>
            checkDecisionInput({
              breakId,
              decision,
              actor: flags.as ?? io.env.RECONCILER_ACTOR ?? "",
              reason: flags.reason,
            }),
          { actor: "--as", reason: "--reason", breakId: "ID" },
        );
      };
      return runOnDatabase(args, io, usage, check, async ({ db }, input) => {
        const result = await decideProposal(db, input);
        printOutcome(
          io,
          `${decision} ${result.breakId}: entry ${result.entryId} and ${result.providerRef} ${decision === "confirm" ? "are a match" : "are not proposed again"} from the next match run (audit row ${result.actionId})`,
          { msg: `break ${decision}`, ...result },
        );
        return EXIT.ok;
      });
    },
  };
}

export const breaksConfirmCommand = decideCommand(
  "confirm",
  "confirm a proposed match: the next run makes it a match",
);
export const breaksRejectCommand = decideCommand(
  "reject",
  "reject a proposed match with a reason: the next run never proposes the pair again",
);
