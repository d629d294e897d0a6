// `reconciler demo`: the demo lives in its own workspace package (@merchantkit/demo: the sandbox,
// the ledger writer with its injected discrepancies), so the installed worker carries none of
// it. In the workspace this loads and runs it; in an installed worker it says where it is.

import { EXIT } from "../../exit-codes";
import type { Command } from "../command";

// A variable, not a literal: the worker does not depend on the demo package, and its build must
// not try to bundle or resolve it.
const DEMO_PACKAGE = "@merchantkit/demo";

const usage =
  "reconciler demo [--seed 42] [--cards 1000] [--transactions 100000] [--days 30] [--data-dir DIR] [--html report.html]";

export const demoCommand: Command = {
  name: "demo",
  summary:
    "run everything on generated data: sandbox, ledger with discrepancies, sync, match, report (in the merchantkit workspace)",
  usage,
  async run(args, io) {
    let demo: { demoCommand: Command };
    try {
      demo = (await import(DEMO_PACKAGE)) as { demoCommand: Command };
    } catch {
      io.err(
        "reconciler: the demo is not part of the installed worker: clone merchantkit and run `npm run demo` (README)",
      );
      return EXIT.usage;
    }
    return demo.demoCommand.run(args, io);
  },
};
