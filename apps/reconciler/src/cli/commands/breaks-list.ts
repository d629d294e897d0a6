// `reconciler breaks list [--status S,..] [--class C] [--assignee NAME] [--sort S] [--json]`:
// the break queue (open and pending unless --status says otherwise) as a table or JSON.
import * as v from "valibot";
import { BREAK_CLASSES } from "../../match/break-classes";
import { moneyText } from "../../money-text";
import { tableLines } from "../../text-table";
import {
  listBreaks,
  QUEUE_SORTS,
  WORKFLOW_STATUSES,
  type WorkflowStatus,
} from "../../workflow/break-queries";
import type { Command } from "../command";
import { commandFlags } from "../command-support";
import { EXIT } from "../exit-codes";
import { SWITCH, UsageError } from "../parse-args";
import { runOnBreaks } from "./breaks-support";

const usage =
  "reconciler breaks list [--status open,pending,accepted,resolved|all] [--class CLASS] [--assignee NAME|none] [--sort priority|amount|age|class|last_action] [--limit 200] [--json]";

const statusList = v.pipe(
  v.string("needs a value"),
  v.transform((s) => (s === "all" ? [...WORKFLOW_STATUSES] : s.split(",").map((x) => x.trim()))),
  v.check(
    (list) => list.every((s) => (WORKFLOW_STATUSES as readonly string[]).includes(s)),
    `must name statuses: ${WORKFLOW_STATUSES.join(", ")} (comma-separated) or all`,
  ),
  v.transform((list) => list as WorkflowStatus[]),
);

export const breaksListCommand: Command = {
  name: "breaks list",
  summary: "list breaks (the open queue by default) with their workflow state",
  usage,
  run(args, io) {
    return runOnBreaks(
      args,
      io,
      usage,
      () => readFlags(args),
      async ({ db }, flags) => {
        const rows = await listBreaks(db, {
          status: flags.status,
          class: flags.class,
          assignee: flags.assignee === "none" ? "" : flags.assignee,
          sort: flags.sort,
          limit: flags.limit,
        });
        if (flags.json === true) {
          io.out(JSON.stringify(rows));
          return EXIT.ok;
        }
        const lines = tableLines(
          [
            "break id",
            "P",
            "class",
            "status",
            "amount",
            "age",
            "assignee",
            "last action",
            "detail",
          ],
          rows.map((b) => [
            b.breakId,
            `P${b.priority}`,
            b.class,
            b.status,
            moneyText(b.amount, b.currency),
            b.daysOpen === null ? "-" : `${b.daysOpen}d`,
            b.assignee ?? "-",
            b.lastAction ? `${b.lastAction} by ${b.lastActor}` : "-",
            b.detail,
          ]),
          new Set([4, 5]),
        );
        for (const line of lines) io.out(line);
        io.out(`${rows.length} break${rows.length === 1 ? "" : "s"}`);
        return EXIT.ok;
      },
    );
  },
};

function readFlags(args: Parameters<Command["run"]>[0]) {
  if (args.positional.length > 0)
    throw new UsageError(`breaks list takes no arguments (got ${args.positional.join(" ")})`);
  return commandFlags(args, {
    status: v.optional(statusList),
    // A misspelt class listed nothing, exit 0: the classes are named instead.
    class: v.optional(v.picklist(BREAK_CLASSES, `must be one of ${BREAK_CLASSES.join(", ")}`)),
    assignee: v.optional(v.pipe(v.string("needs a name (or none)"), v.minLength(1))),
    sort: v.optional(v.picklist(QUEUE_SORTS, `must be one of ${QUEUE_SORTS.join(", ")}`)),
    limit: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[1-9]\d{0,5}$/, "must be a whole number from 1"),
        v.transform(Number),
      ),
    ),
    json: SWITCH,
  });
}
