// `reconciler ledger import <file.csv>`: the merchant's ledger file into ledger_entries, all or
// nothing (a bad row is reported with its line and reason), idempotent by entry_id.
import { readFile } from "node:fs/promises";
import { EXIT } from "../../exit-codes";
import { importLedger, LedgerImportError } from "../../ledger/import-ledger";
import { ledgerEntitiesOf } from "../../ledger/ledger-row";
import type { Command } from "../command";
import { commandFlags, runOnDatabase } from "../command-support";
import { UsageError } from "../parse-args";

const usage = "reconciler ledger import <file.csv>   (format: docs/ledger-format.md)";

export const ledgerImportCommand: Command = {
  name: "ledger import",
  summary: "import the merchant's ledger from a CSV file (idempotent by entry_id; all or nothing)",
  usage,
  run(args, io) {
    const check = async () => {
      commandFlags(args, {}, { positional: true });
      const [file, ...extra] = args.positional;
      if (!file) throw new UsageError("ledger import needs the CSV file to read");
      if (extra.length > 0)
        throw new UsageError(`one file at a time (got ${args.positional.length})`);
      const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
        throw new UsageError(`cannot read ${file}: ${error.code ?? error.message}`);
      });
      return { file, text };
    };
    return runOnDatabase(args, io, usage, check, async ({ db }, { file, text }, config) => {
      try {
        const result = await importLedger(db, text, {
          sourceFile: file,
          entities: ledgerEntitiesOf(config),
        });
        io.out(
          io.isTty
            ? `imported ${file}: ${result.rows} rows, ${result.inserted} new, ${result.updated} changed, ${result.unchanged} unchanged`
            : JSON.stringify({ msg: "ledger imported", file, ...result }),
        );
        return EXIT.ok;
      } catch (error) {
        if (!(error instanceof LedgerImportError)) throw error;
        io.err(`reconciler: ${error.message}`);
        return EXIT.ledgerRejected;
      }
    });
  },
};
