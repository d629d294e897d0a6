// `reconciler report [--date YYYY-MM-DD] [--entity MERCHANT_NO|SUB_MERCHANT] [--html out.html]`:
// the latest run's results for a person: a terminal summary, and optionally a self-contained
// HTML page. With --entity, that entity's figures only (report-data.ts ReportData.scope).
import { writeFile } from "node:fs/promises";
import * as v from "valibot";
import type { ReconcilerConfig } from "../../config/reconciler-config";
import type { Database } from "../../db/database";
import { EXIT } from "../../exit-codes";
import { renderHtml } from "../../report/render-html";
import { renderText } from "../../report/render-text";
import { loadReport } from "../../report/report-data";
import { terminalText } from "../../text-table";
import type { Command } from "../command";
import { commandFlags, configOf, openReadDatabase, runOnDatabase } from "../command-support";
import { storedEntity } from "./entity-flag";

const usage =
  "reconciler report [--date YYYY-MM-DD] [--entity MERCHANT_NO|SUB_MERCHANT] [--html out.html] [--limit 25]";

export const reportCommand: Command = {
  name: "report",
  summary: "print the reconciliation report (statement, break queue) and write it as HTML",
  usage,
  run(args, io) {
    const check = () => {
      const flags = commandFlags(args, {
        date: v.optional(
          v.pipe(
            v.string("needs a value"),
            v.regex(/^\d{4}-\d{2}-\d{2}$/, "must be a day, YYYY-MM-DD"),
            v.check((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), "must be a real day"),
          ),
        ),
        html: v.optional(v.pipe(v.string("needs a file name"), v.minLength(1))),
        entity: v.optional(v.pipe(v.string("needs a merchantNo"), v.trim(), v.minLength(1))),
        limit: v.optional(
          v.pipe(v.string(), v.regex(/^\d+$/, "must be a whole number"), v.transform(Number)),
        ),
      });
      const config = configOf(args, io);
      const entity =
        flags.entity === undefined ? undefined : storedEntity(flags.entity, config, "--entity");
      return { ...flags, entities: entity === undefined ? undefined : [entity] };
    };
    const work = async (
      { db }: Database,
      flags: ReturnType<typeof check>,
      config: ReconcilerConfig,
    ) => {
      const data = await loadReport(db, {
        date: flags.date,
        queueLimit: 500,
        due: config.due,
        entities: flags.entities,
      });
      if (io.isTty || !flags.html)
        for (const line of renderText(data, { queueRows: flags.limit ?? 25 }))
          io.out(terminalText(line));
      if (flags.html) {
        await writeFile(flags.html, renderHtml(data), "utf8");
        io.out(
          io.isTty
            ? `wrote ${flags.html}`
            : JSON.stringify({ msg: "report written", file: flags.html }),
        );
      }
      return EXIT.ok;
    };
    return runOnDatabase(args, io, usage, check, work, openReadDatabase);
  },
};
