// `reconciler demo`: the whole pipeline on generated data, in about a minute, with no database
// server and no credentials (sandbox in this process, PGlite in a temporary folder). The
// worker's `demo` command loads this package when it is installed (the workspace).
import {
  type Command,
  commandFlags,
  EXIT,
  progressPrinter,
  reportError,
} from "@merchantkit/reconciler";
import * as v from "valibot";
import { runDemo } from "./run-demo";

const usage =
  "reconciler demo [--seed 42] [--cards 1000] [--transactions 100000] [--days 30] [--data-dir DIR] [--html report.html]";

const whole = (min: number, max: number) =>
  v.optional(
    v.pipe(
      v.string("needs a value"),
      v.regex(/^\d+$/, "must be a whole number"),
      v.transform(Number),
      v.minValue(min, `must be at least ${min}`),
      v.maxValue(max, `must be at most ${max}`),
    ),
  );

export const demoCommand: Command = {
  name: "demo",
  summary:
    "run everything on generated data: sandbox, ledger with discrepancies, sync, match, report",
  usage,
  async run(args, io) {
    try {
      const flags = commandFlags(args, {
        seed: whole(0, 2 ** 31),
        cards: whole(1, 100_000),
        transactions: whole(100, 2_000_000),
        days: whole(2, 365),
        "data-dir": v.optional(v.pipe(v.string("needs a folder"), v.minLength(1))),
        html: v.optional(v.pipe(v.string("needs a file name"), v.minLength(1))),
      });
      const result = await runDemo({
        seed: flags.seed,
        cards: flags.cards,
        cardTransactions: flags.transactions,
        days: flags.days,
        dataDir: flags["data-dir"],
        htmlPath: flags.html,
        out: io.out,
        onProgress: io.isTty ? progressPrinter((line) => io.err(line)) : undefined,
        signal: io.signal,
      });
      const allFound = result.checks.every((c) => c.breakId) && result.unexpected.length === 0;
      return allFound ? EXIT.ok : EXIT.failed;
    } catch (error) {
      return reportError(io, error, usage);
    }
  },
};
