// `reconciler breaks list [--status S,..] [--class C] [--currency USD,..] [--assignee NAME]
// [--entity MERCHANT_NO] [--sort S] [--limit N] [--offset N | --all] [--json]`: the break queue (open and pending unless
// --status says otherwise) as a table or JSON, one page at a time. The table ends with how many breaks
// match in all ("200 of 3,231 breaks (--offset 200 for the next)"); the JSON stays an array (what
// scripts read) and the same line goes to stderr.
import * as v from "valibot";
import type { ReconcilerConfig } from "../../config/reconciler-config";
import { EXIT } from "../../exit-codes";
import { BREAK_CLASSES } from "../../match/break-classes";
import { moneyText } from "../../money-text";
import { queueTotalsTable } from "../../report/report-tables";
import { tableLines } from "../../text-table";
import {
  currencyFilter,
  listBreakPage,
  QUEUE_SORTS,
  WORKFLOW_STATUSES,
  type WorkflowStatus,
} from "../../workflow/break-queries";
import { queueSearch } from "../../workflow/queue-search";
import { queueTotals, queueTotalsNote } from "../../workflow/queue-totals";
import { UNASSIGNED_FILTER } from "../../workflow/typed-text";
import type { Command } from "../command";
import { commandFlags, runOnDatabase } from "../command-support";
import { SWITCH, UsageError } from "../parse-args";
import { storedEntity } from "./entity-flag";

const usage =
  "reconciler breaks list [--status open,pending,accepted,resolved|all] [--class CLASS] [--currency USD[,EUR]] [--assignee NAME|none] [--entity MERCHANT_NO|SUB_MERCHANT] [--sort priority|amount|age|class|last_action|due (amount: by currency, then the largest first; age: the oldest record age first; due: the earliest due first)] [--overdue] [--search TEXT (an id, card or amount: 1,710.47 HKD)] [--limit 200] [--offset N | --all] [--json]";

const DEFAULT_LIMIT = 200;
const count = (n: number) => n.toLocaleString("en-US");

/** "200 of 3,231 breaks (201–400; --offset 400 for the next)": the page and the whole. */
export function pageLine(shown: number, total: number, offset: number): string {
  const all = `${count(shown)} of ${count(total)} break${total === 1 ? "" : "s"}`;
  const where =
    offset === 0 || shown === 0
      ? ""
      : shown === 1
        ? `#${count(offset + 1)}`
        : `${count(offset + 1)}–${count(offset + shown)}`;
  const next = offset + shown < total && shown > 0 ? `--offset ${offset + shown} for the next` : "";
  const notes = [where, next].filter((x) => x !== "").join("; ");
  return notes ? `${all} (${notes})` : all;
}

// Statuses, classes and "none" are lower-case words; they are taken in any case.
const lowerCase = v.transform((s: string) => s.toLowerCase());

const statusList = v.pipe(
  v.string("needs a value"),
  lowerCase,
  v.transform((s) => (s === "all" ? [...WORKFLOW_STATUSES] : s.split(",").map((x) => x.trim()))),
  v.check(
    (list) => list.every((s) => (WORKFLOW_STATUSES as readonly string[]).includes(s)),
    `must name statuses: ${WORKFLOW_STATUSES.join(", ")} (comma-separated) or all`,
  ),
  v.transform((list) => list as WorkflowStatus[]),
);

/** The flags that choose breaks (breaks list, export): checked as breaksFilter reads them. */
export const BREAK_FILTER_FLAGS = {
  status: v.optional(statusList),
  // A misspelt class would list nothing, exit 0: the classes are named instead.
  class: v.optional(
    v.pipe(
      v.string(),
      lowerCase,
      v.picklist(BREAK_CLASSES, `must be one of ${BREAK_CLASSES.join(", ")}`),
    ),
  ),
  currency: v.optional(
    v.pipe(
      v.string("needs currency codes"),
      v.transform(currencyFilter),
      v.check(Array.isArray, (issue) => String(issue.input)),
      v.transform((codes) => codes as string[]),
    ),
  ),
  assignee: v.optional(v.pipe(v.string("needs a name (or none)"), v.minLength(1))),
  entity: v.optional(v.pipe(v.string("needs a merchantNo"), v.trim(), v.minLength(1))),
  sort: v.optional(v.picklist(QUEUE_SORTS, `must be one of ${QUEUE_SORTS.join(", ")}`)),
  overdue: SWITCH,
  search: v.optional(
    v.pipe(
      v.string("needs the text to look for"),
      v.trim(),
      v.minLength(1, "needs the text to look for"),
      v.maxLength(200, "must be at most 200 characters"),
      v.transform(queueSearch),
    ),
  ),
};

/** The filter the BREAK_FILTER_FLAGS given choose ("none": the unassigned breaks). */
export function breaksFilter(
  flags: v.InferOutput<v.ObjectSchema<typeof BREAK_FILTER_FLAGS, undefined>>,
  config?: Pick<ReconcilerConfig, "merchantNo" | "entities">,
) {
  return {
    status: flags.status,
    class: flags.class,
    currency: flags.currency,
    entity: flags.entity === undefined ? undefined : storedEntity(flags.entity, config, "--entity"),
    assignee: flags.assignee?.toLowerCase() === UNASSIGNED_FILTER ? "" : flags.assignee,
    sort: flags.sort,
    overdue: flags.overdue === true ? true : undefined,
    search: flags.search,
  };
}

export const breaksListCommand: Command = {
  name: "breaks list",
  summary: "list breaks (the open queue by default) with their workflow state",
  usage,
  run(args, io) {
    return runOnDatabase(
      args,
      io,
      usage,
      () => readFlags(args),
      async ({ db }, flags, config) => {
        const offset = flags.offset ?? 0;
        const filter = { ...breaksFilter(flags, config), due: config.due };
        const { rows, total } = await listBreakPage(db, {
          ...filter,
          limit: flags.all === true ? null : (flags.limit ?? DEFAULT_LIMIT),
          offset,
        });
        const summary = pageLine(rows.length, total, offset);
        if (flags.json === true) {
          // An array as before (scripts read it); how many there are in all goes to stderr.
          io.out(JSON.stringify(rows));
          io.err(summary);
          return EXIT.ok;
        }
        const lines = tableLines(
          [
            "break id",
            "P",
            "class",
            "status",
            "amount",
            "record age",
            "open for",
            "due",
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
            b.recordAgeDays === null ? "-" : `${b.recordAgeDays}d`,
            b.daysOpen === null ? "-" : `${b.daysOpen}d`,
            dueText(b),
            b.assignee ?? "-",
            b.lastAction ? `${b.lastAction} by ${b.lastActor}` : "-",
            b.detail,
          ]),
          new Set([4, 5, 6]),
        );
        for (const line of lines) io.out(line);
        // Every page's breaks, not this page's: what the filter holds, per currency.
        const totals = await queueTotals(db, filter);
        if (totals.length > 0) {
          io.out("");
          io.out("Totals of this filter per currency (every page):");
          const t = queueTotalsTable(totals);
          for (const line of tableLines(t.header, t.rows, t.right)) io.out(`  ${line}`);
          const note = await queueTotalsNote(db, filter);
          if (note) io.out(`  (${note})`);
        }
        io.out(summary);
        return EXIT.ok;
      },
    );
  },
};

function readFlags(args: Parameters<Command["run"]>[0]) {
  if (args.positional.length > 0)
    throw new UsageError(`breaks list takes no arguments (got ${args.positional.join(" ")})`);
  const flags = commandFlags(args, {
    ...BREAK_FILTER_FLAGS,
    limit: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[1-9]\d{0,5}$/, "must be a whole number from 1"),
        v.transform(Number),
      ),
    ),
    offset: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^(0|[1-9]\d{0,8})$/, "must be a whole number from 0"),
        v.transform(Number),
      ),
    ),
    all: SWITCH,
    json: SWITCH,
  });
  if (flags.all === true && (flags.limit !== undefined || flags.offset !== undefined))
    throw new UsageError("--all lists every break: it takes no --limit or --offset");
  return flags;
}

/** "2026-05-03" or "2026-05-03 overdue": an open break's due day (UTC), "-" for any other. */
export function dueText(b: { dueAt: string | null; overdue: boolean }): string {
  if (!b.dueAt) return "-";
  return `${b.dueAt.slice(0, 10)}${b.overdue ? " overdue" : ""}`;
}
