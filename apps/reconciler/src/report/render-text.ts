// The report as plain text for a terminal: verdict, statement per currency, the break queue.
import { moneyText } from "../money-text";
import { tableLines as table } from "../text-table";
import { changedSinceRun, type ReportData } from "./report-data";
import * as tables from "./report-tables";

const lines = (d: tables.TableData) => table(d.header, d.rows, d.right);

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
  out.push(`Reconciliation report${tables.scopeText(data)} ${scope}, as of ${data.run.asOf}`);
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
  // A section: a blank line, its heading, its table.
  const section = (title: string, t: tables.TableData) => out.push("", title, ...lines(t));
  section(
    `Provider vs ledger per currency: the bridge (${tables.BRIDGE_RULE})`,
    tables.currencyTable(data),
  );
  const entitySection = tables.entitySectionTitle(data);
  if (entitySection) section(entitySection, tables.entityTable(data));
  section(
    `Open differences by class, per currency (${tables.EFFECT_RULE})`,
    tables.classTable(data.byClass),
  );
  out.push("", `Overdue open breaks per currency (${tables.DUE_RULE}; ${tables.OVERDUE_RULE})`);
  if (data.overdue.length === 0) out.push("  none");
  else out.push(...lines(tables.queueTotalsTable(data.overdue)));
  if (data.acceptedByClass.length > 0)
    section(
      "Accepted breaks by class (out of the queue; they lapse if the difference changes)",
      tables.classTable(data.acceptedByClass),
    );
  if (data.date)
    section(
      `Statement of ${data.date} (difference = timing + breaks + pending + unexplained)`,
      tables.statementTable(data.statement),
    );
  const shown = data.queue.slice(0, opts.queueRows ?? 25);
  out.push(
    "",
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
  if (data.staleAuthorizations.length > 0)
    section("Open authorizations by age", tables.holdsTable(data));
  return out;
}
