// The report as plain text for a terminal: verdict, statement per currency, the break queue.
import { moneyText } from "../money-text";
import { tableLines as table } from "../text-table";
import { changedSinceRun, type ReportData } from "./report-data";
import {
  BRIDGE_RULE,
  classTable,
  currencyTable,
  DUE_RULE,
  EFFECT_RULE,
  entitySectionTitle,
  entityTable,
  holdsTable,
  overdueTable,
  scopeText,
  statementTable,
  type TableData,
} from "./report-tables";

const lines = (t: TableData) => table(t.header, t.rows, t.right);

const VERDICT_TEXT: Record<string, string> = {
  reconciled: "RECONCILED: provider and ledger agree",
  reconciled_with_pending: "RECONCILED WITH PENDING: items inside their grace period",
  breaks: "BREAKS: differences to work on",
  incomplete: "INCOMPLETE: the provider data is not complete enough to judge",
};

/** Lines of the terminal report. */
export function renderText(data: ReportData, opts: { queueRows?: number } = {}): string[] {
  const out: string[] = [];
  const scope = data.date ? `for ${data.date}` : "for every day";
  if (!data.run) {
    out.push("No match run yet: run `reconciler run` (or `reconciler demo`).");
    return out;
  }
  out.push(`Reconciliation report${scopeText(data)} ${scope}, as of ${data.run.asOf}`);
  out.push(`Verdict: ${VERDICT_TEXT[data.run.verdict] ?? data.run.verdict}`);
  for (const reason of data.run.reasons) out.push(`  - ${reason}`);
  const s = data.run.stats;
  // The run's counts are the platform's: a report of some entities leaves them out.
  if (data.scope === undefined)
    out.push(
      `Provider items ${s.providerItems ?? 0}, ledger entries ${s.ledgerEntries ?? 0}; matched: exact ${s["matched.exact"] ?? 0}, chains ${s["matched.chain"] ?? 0}, operations gross ${s["matched.operation_gross"] ?? 0}, cash legs ${s["matched.cash_leg"] ?? 0}, proposed ${s["matched.tolerant"] ?? 0}`,
    );
  out.push(`Open breaks ${data.openBreaks}, pending ${data.pendingItems}`);
  const since = changedSinceRun(data);
  if (since) out.push(`  (${since})`);
  out.push("");
  out.push(`Provider vs ledger per currency: the bridge (${BRIDGE_RULE})`);
  out.push(...lines(currencyTable(data)));
  const entitySection = entitySectionTitle(data);
  if (entitySection) {
    out.push("");
    out.push(entitySection);
    out.push(...lines(entityTable(data)));
  }
  out.push("");
  out.push(`Open differences by class, per currency (${EFFECT_RULE})`);
  out.push(...lines(classTable(data.byClass)));
  out.push("");
  out.push(`Overdue open breaks per currency (${DUE_RULE})`);
  if (data.overdue.length === 0) out.push("  none");
  else out.push(...lines(overdueTable(data)));
  if (data.acceptedByClass.length > 0) {
    out.push("");
    out.push("Accepted breaks by class (out of the queue; they lapse if the difference changes)");
    out.push(...lines(classTable(data.acceptedByClass)));
  }
  if (data.date) {
    out.push("");
    out.push(`Statement of ${data.date} (difference = timing + breaks + pending + unexplained)`);
    out.push(...lines(statementTable(data.statement)));
  }
  const shown = data.queue.slice(0, opts.queueRows ?? 25);
  out.push("");
  out.push(
    `Break queue (${shown.length} of ${data.openBreaks + data.pendingItems}, most urgent first)`,
  );
  out.push(
    ...table(
      ["P", "class", "amount", "record age", "assignee", "record", "detail"],
      shown.map((q) => [
        `P${q.priority}${q.status === "pending" ? "?" : ""}`,
        q.class,
        moneyText(q.amount, q.currency),
        q.ageDays === null ? "-" : `${q.ageDays}d`,
        q.assignee ?? "-",
        q.providerRef ?? q.entryId ?? "",
        q.detail,
      ]),
      new Set([2, 3]),
    ),
  );
  if (data.staleAuthorizations.length > 0) {
    out.push("");
    out.push("Open authorizations by age");
    out.push(...lines(holdsTable(data)));
  }
  return out;
}
