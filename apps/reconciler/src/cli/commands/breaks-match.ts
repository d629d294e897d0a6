// `reconciler breaks match --entry ID[,ID…] --record ID[,ID…] --reason TEXT` and
// `reconciler breaks unmatch ID --reason TEXT`: finance pairs ledger entries with provider
// records that no pass paired, or undoes such a pair (workflow/manual-match.ts); the next match
// run applies it. What is typed is checked before the database is opened; errors name the flag.
import * as v from "valibot";
import { EXIT } from "../../exit-codes";
import { moneyText } from "../../money-text";
import {
  checkManualMatchInput,
  checkUnmatchInput,
  matchManually,
  unmatchManually,
} from "../../workflow/manual-match";
import { WorkflowError } from "../../workflow/workflow-error";
import type { Command } from "../command";
import { commandFlags, oneWord, printOutcome, runOnDatabase } from "../command-support";
import { withFlagNames } from "./breaks-act";

const text = (what: string) => v.optional(v.string(what));
const ids = (list: string | undefined) => (list ?? "").split(",");

const FLAGS: Record<string, string> = { entries: "--entry", records: "--record" };

/** A workflow error found in the database ("records: …") named after its flag ("--record: …"). */
function flagNamed(error: unknown): unknown {
  const flag = error instanceof WorkflowError && error.field ? FLAGS[error.field] : undefined;
  if (!(error instanceof WorkflowError) || flag === undefined) return error;
  const message = error.message.replace(new RegExp(`^${error.field}: `), "");
  return new WorkflowError(error.code, `${flag}: ${message}`, error.field);
}

const MATCH_USAGE =
  "reconciler breaks match --entry ID[,ID…] --record ID[,ID…] --reason TEXT --as NAME   (or RECONCILER_ACTOR=NAME)";

export const breaksMatchCommand: Command = {
  name: "breaks match",
  summary:
    "match ledger entries with provider records no pass paired (one currency, equal sums), with a reason",
  usage: MATCH_USAGE,
  run(args, io) {
    const check = () => {
      const flags = commandFlags(args, {
        as: text("needs a name"),
        reason: text("needs the reason"),
        entry: text("needs ledger entry ids, comma-separated"),
        record: text("needs provider record ids, comma-separated"),
      });
      return withFlagNames(
        () =>
          checkManualMatchInput({
            entries: ids(flags.entry),
            records: ids(flags.record),
            actor: flags.as ?? io.env.RECONCILER_ACTOR ?? "",
            reason: flags.reason ?? "",
          }),
        { actor: "--as", reason: "--reason", ...FLAGS },
      );
    };
    return runOnDatabase(args, io, MATCH_USAGE, check, async ({ db }, input) => {
      const result = await matchManually(db, input).catch((error: unknown) => {
        throw flagNamed(error);
      });
      printOutcome(
        io,
        `manual match ${result.matchId}: entries ${input.entries.join(", ")} and records ${input.records.join(", ")} (${moneyText(result.amount, result.currency)}) are a match from the next match run; breaks ${result.breakIds.join(", ")}`,
        { msg: "manual match", ...result },
      );
      return EXIT.ok;
    });
  },
};

const UNMATCH_USAGE =
  "reconciler breaks unmatch ID --reason TEXT --as NAME   (or RECONCILER_ACTOR=NAME)";

export const breaksUnmatchCommand: Command = {
  name: "breaks unmatch",
  summary: "undo a manual match with a reason: the next run gives its records back their breaks",
  usage: UNMATCH_USAGE,
  run(args, io) {
    const check = () => {
      const flags = commandFlags(
        args,
        { as: text("needs a name"), reason: text("needs the reason") },
        { positional: true },
      );
      const matchId = oneWord(args, "breaks unmatch needs the manual match's id");
      return withFlagNames(
        () =>
          checkUnmatchInput({
            matchId,
            actor: flags.as ?? io.env.RECONCILER_ACTOR ?? "",
            reason: flags.reason ?? "",
          }),
        { actor: "--as", reason: "--reason", matchId: "ID" },
      );
    };
    return runOnDatabase(args, io, UNMATCH_USAGE, check, async ({ db }, input) => {
      const result = await unmatchManually(db, input);
      printOutcome(
        io,
        `manual match ${result.matchId} undone: its records are breaks again from the next match run (breaks ${result.breakIds.join(", ")})`,
        { msg: "manual match undone", ...result },
      );
      return EXIT.ok;
    });
  },
};
