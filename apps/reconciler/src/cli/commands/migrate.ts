// `reconciler migrate`: applies the committed migrations (openDatabase does it under an
// advisory lock) and reports where.
import { describeConfig } from "../../config/describe-config";
import { EXIT } from "../../exit-codes";
import type { Command } from "../command";
import { commandFlags, runOnDatabase } from "../command-support";

const usage = "reconciler migrate [--database-url URL | --data-dir DIR]";

export const migrateCommand: Command = {
  name: "migrate",
  summary: "create or update the reconciler's tables",
  usage,
  run(args, io) {
    const check = () => commandFlags(args, {});
    return runOnDatabase(args, io, usage, check, async (_database, _flags, config) => {
      io.out(`migrated ${describeConfig(config).database}`);
      return EXIT.ok;
    });
  },
};
