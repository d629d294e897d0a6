// `reconciler breaks write-off ID --account ACCOUNT --reason TEXT [--date YYYY-MM-DD]`: resolves
// a break by adjustment, booking one journal entry per currency it touches (workflow/write-off.ts).
// What is typed is checked before the database is opened; errors name the flag.
import * as v from "valibot";
import { EXIT } from "../../exit-codes";
import { checkWriteOffInput, writeOffBreak } from "../../workflow/write-off";
import type { Command } from "../command";
import { commandFlags, oneWord, printOutcome, runOnDatabase } from "../command-support";
import { withFlagNames } from "./breaks-act";

const text = (what: string) => v.optional(v.string(`needs ${what}`));

const usage =
  "reconciler breaks write-off ID --account ACCOUNT --reason TEXT [--date YYYY-MM-DD] --as NAME   (or RECONCILER_ACTOR=NAME)";

export const breaksWriteOffCommand: Command = {
  name: "breaks write-off",
  summary: "write a break off to an account: one journal entry per currency, the break accepted",
  usage,
  run(args, io) {
    const check = () => {
      const flags = commandFlags(
        args,
        {
          as: text("a name"),
          account: text("the account"),
          reason: text("the reason"),
          date: text("the date"),
        },
        { positional: true },
      );
      const breakId = oneWord(args, "breaks write-off needs the break id");
      return withFlagNames(
        () =>
          checkWriteOffInput({
            breakId,
            actor: flags.as ?? io.env.RECONCILER_ACTOR ?? "",
            account: flags.account ?? "",
            reason: flags.reason ?? "",
            date: flags.date,
          }),
        { actor: "--as", account: "--account", reason: "--reason", date: "--date", breakId: "ID" },
      );
    };
    return runOnDatabase(args, io, usage, check, async ({ db }, input) => {
      const result = await writeOffBreak(db, input);
      printOutcome(
        io,
        [
          `write-off ${result.breakId}: now accepted (audit row ${result.actionId})`,
          ...result.entries.map(
            (e) => `  journal entry ${e.id}: ${e.entryDate} ${e.account} ${e.amount} ${e.currency}`,
          ),
        ].join("\n"),
        { msg: "break write-off", ...result },
      );
      return EXIT.ok;
    });
  },
};
