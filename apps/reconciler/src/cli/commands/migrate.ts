// `reconciler migrate`: applies the committed migrations (openDatabase does it under an
// advisory lock) and reports where.
import { describeConfig } from "../../config/describe-config";
import { EXIT } from "../../exit-codes";
import type { Command } from "../command";
import { commandFlags, configOf, openConfiguredDatabase, reportError } from "../command-support";

const usage = "reconciler migrate [--database-url URL | --data-dir DIR]";

export const migrateCommand: Command = {
  name: "migrate",
  summary: "create or update the reconciler's tables",
  usage,
  async run(args, io) {
    try {
      commandFlags(args, {});
      const config = configOf(args, io);
      const database = await openConfiguredDatabase(config);
      await database.close();
      io.out(`migrated ${describeConfig(config).database}`);
      return EXIT.ok;
    } catch (error) {
      return reportError(io, error, usage);
    }
  },
};
