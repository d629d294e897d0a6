// `reconciler windows` lists the windows a stream could not read yet (retried by every run
// until read); `reconciler windows give-up ID --reason TEXT --as NAME` is a person's decision
// that one will not be read, kept with who, when and why — never something the worker does.
import * as v from "valibot";
import { EXIT } from "../../exit-codes";
import { giveUpWindow, listWindows } from "../../store/sync-windows";
import { table } from "../../text-table";
import type { Command } from "../command";
import { commandFlags, runOnDatabase } from "../command-support";
import { SWITCH, UsageError } from "../parse-args";

const listUsage = "reconciler windows [--all]   (--all: given-up windows too)";
const giveUpUsage =
  "reconciler windows give-up ID --reason TEXT [--as NAME]  (or RECONCILER_ACTOR)";

export const windowsCommand: Command = {
  name: "windows",
  summary: "windows not read yet (retried every run), and given-up ones with who and why",
  usage: listUsage,
  run(args, io) {
    const check = () => {
      const flags = commandFlags(args, { all: SWITCH });
      if (args.positional.length > 0)
        throw new UsageError(`unexpected ${args.positional.join(" ")}`);
      return flags.all === true;
    };
    return runOnDatabase(args, io, listUsage, check, async ({ db }, all) => {
      const windows = await listWindows(db, { all });
      if (!io.isTty) {
        for (const w of windows) io.out(JSON.stringify(w));
        return EXIT.ok;
      }
      io.out(
        table(
          ["id", "stream", "start", "end", "state", "attempts", "last error / given up"],
          windows.map((w) => [
            String(w.id),
            w.stream,
            w.start.toISOString(),
            w.end.toISOString(),
            w.state,
            String(w.attempts),
            w.givenUp
              ? `${w.givenUp.by} ${w.givenUp.at.toISOString()}: ${w.givenUp.reason}`
              : (w.lastError ?? "").slice(0, 80),
          ]),
        ),
      );
      return EXIT.ok;
    });
  },
};

const text = (what: string) =>
  v.pipe(v.string(`needs ${what}`), v.trim(), v.minLength(1, `needs ${what}`));

export const windowsGiveUpCommand: Command = {
  name: "windows give-up",
  summary: "a person gives an unread window up (recorded: who, when, why); it is no longer read",
  usage: giveUpUsage,
  run(args, io) {
    const check = () => {
      const flags = commandFlags(
        args,
        { reason: text("a reason"), as: v.optional(text("a name")) },
        { positional: true },
      );
      const [id, ...extra] = args.positional;
      if (!id || !/^\d{1,15}$/.test(id) || extra.length > 0)
        throw new UsageError("give-up needs one window id (see `reconciler windows`)");
      const actor = flags.as ?? io.env.RECONCILER_ACTOR?.trim();
      if (!actor) throw new UsageError("who gives it up? pass --as NAME or set RECONCILER_ACTOR");
      return { id, actor, reason: flags.reason };
    };
    return runOnDatabase(args, io, giveUpUsage, check, async ({ db }, { id, actor, reason }) => {
      const done = await giveUpWindow(db, { id: Number(id), by: actor, reason });
      if (!done) {
        io.err(`reconciler: no unread window has id ${id} (see \`reconciler windows\`)`);
        return EXIT.usage;
      }
      io.out(
        io.isTty
          ? `window ${id} given up by ${actor}: it will not be read again`
          : JSON.stringify({
              msg: "window given up",
              id: Number(id),
              by: actor,
              reason,
            }),
      );
      return EXIT.ok;
    });
  },
};
