// `reconciler export journal|breaks|audit --out FILE [--format csv|xlsx] [breaks list filters]`:
// the journal entries of write-offs, the breaks, or the audit trail, as CSV (csv-table.ts) or
// XLSX (xlsx-table.ts). The file is written whole under a temporary name and then renamed, so
// a reader never opens half of it.
import { randomUUID } from "node:crypto";
import { rename, rm, writeFile } from "node:fs/promises";
import * as v from "valibot";
import { EXIT } from "../../exit-codes";
import { tableCsv } from "../../export/csv-table";
import { EXPORTS, type ExportKind, loadExport } from "../../export/export-table";
import { tableXlsx } from "../../export/xlsx-table";
import type { Command } from "../command";
import { commandFlags, configOf, runOnDatabase } from "../command-support";
import { UsageError } from "../parse-args";
import { BREAK_FILTER_FLAGS, breaksFilter } from "./breaks-list";

const usage =
  "reconciler export journal|breaks|audit --out FILE [--format csv|xlsx] [--status S,..|all] [--class CLASS] [--currency USD[,EUR]] [--assignee NAME|none] [--entity MERCHANT_NO|SUB_MERCHANT] [--sort S]";

export const exportCommand: Command = {
  name: "export",
  summary:
    "write the journal, the breaks or the audit trail (filtered as breaks list) as CSV or XLSX",
  usage,
  run(args, io) {
    const check = () => {
      const flags = commandFlags(
        args,
        {
          out: v.pipe(
            v.string("needs the file to write"),
            v.minLength(1, "needs the file to write"),
          ),
          format: v.optional(v.picklist(["csv", "xlsx"], "must be csv or xlsx"), "csv"),
          ...BREAK_FILTER_FLAGS,
        },
        { positional: true },
      );
      const [kind, ...rest] = args.positional;
      if (!kind || !(EXPORTS as readonly string[]).includes(kind))
        throw new UsageError(`export needs what to write: ${EXPORTS.join(", ")}`);
      if (rest.length > 0) throw new UsageError(`unexpected words: ${rest.join(" ")}`);
      return {
        kind: kind as ExportKind,
        out: flags.out,
        format: flags.format,
        filter: breaksFilter(flags, configOf(args, io)),
      };
    };
    return runOnDatabase(args, io, usage, check, async ({ db }, { kind, out, format, filter }) => {
      const table = await loadExport(db, kind, filter);
      const body = format === "csv" ? tableCsv(table) : await tableXlsx(table, kind);
      const temporary = `${out}.${randomUUID()}.tmp`;
      try {
        await writeFile(temporary, body);
        await rename(temporary, out);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
      io.out(JSON.stringify({ msg: `export ${kind}`, file: out, format, rows: table.rows.length }));
      return EXIT.ok;
    });
  },
};
