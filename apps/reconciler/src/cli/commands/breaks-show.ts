// `reconciler breaks show ID [--json]`: one break with its records, the provider record, the
// ledger entry (labelled, amounts with their currency, as the console shows them) and its audit
// history. Every line of the text form goes through terminalText:
// comments, names and ledger fields are anyone's typing (an ESC or a line break must not reach
// the terminal raw).

import { EXIT } from "../../exit-codes";
import { moneyText } from "../../money-text";
import { historyTable } from "../../report/report-tables";
import { tableLines, terminalText } from "../../text-table";
import { showBreak } from "../../workflow/break-queries";
import { labelledFields, recordKindOf } from "../../workflow/record-fields";
import { WorkflowError } from "../../workflow/workflow-error";
import type { Command } from "../command";
import { commandFlags, runOnDatabase } from "../command-support";
import { SWITCH, UsageError } from "../parse-args";
import { dueText } from "./breaks-list";

const usage = "reconciler breaks show ID [--json]";

export const breaksShowCommand: Command = {
  name: "breaks show",
  summary: "show one break: its records, provider record, ledger entry and audit history",
  usage,
  run(args, io) {
    const check = () => {
      const flags = commandFlags(args, { json: SWITCH }, { positional: true });
      const [id, ...extra] = args.positional;
      if (!id || extra.length > 0) throw new UsageError("breaks show needs one break id");
      return { json: flags.json === true, id };
    };
    return runOnDatabase(args, io, usage, check, async ({ db }, { json, id }, config) => {
      const detail = await showBreak(db, id, config.due);
      if (!detail) throw new WorkflowError("unknown_break", `no break has the id ${id}`, "breakId");
      if (json) {
        io.out(JSON.stringify(detail));
        return EXIT.ok;
      }
      const out = (line: string) => io.out(terminalText(line));
      const b = detail.break;
      out(`Break ${b.breakId}: ${b.class} (P${b.priority}), ${b.status}`);
      out(`  amount ${moneyText(b.amount, b.currency)}; ${b.detail}`);
      out(
        `  occurred ${b.occurredAt ?? "-"} (record age ${b.recordAgeDays ?? "-"} days), open for ${b.daysOpen ?? "-"} days, assignee ${b.assignee ?? "-"}`,
      );
      if (b.dueAt) out(`  due ${dueText(b)}`);
      if (b.acceptedAt)
        out(`  accepted by ${b.acceptedBy} at ${b.acceptedAt}: ${b.acceptedReason}`);
      const resolved = detail.resolution;
      if (resolved)
        out(`  resolved at ${resolved.at} by match run ${resolved.runId}: ${resolved.why}`);
      for (const [title, fields] of [
        [
          `Provider record (${detail.providerRecord ? recordKindOf(detail.providerRecord.table) : "none"})`,
          detail.providerRecord?.fields,
        ],
        ["Ledger entry", detail.ledgerEntry],
      ] as const) {
        out("");
        out(title);
        for (const [k, value] of labelledFields(fields ?? [])) out(`  ${k}: ${value ?? "-"}`);
      }
      out("");
      out("History");
      const h = historyTable(detail.history, resolved);
      for (const line of tableLines(h.header, h.rows, h.right)) io.out(`  ${line}`);
      return EXIT.ok;
    });
  },
};
