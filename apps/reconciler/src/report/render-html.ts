// The report as one self-contained HTML page: inline CSS and SVG charts, no script, no network,
// so it opens from a mail attachment or a shared drive. The console shows the same sections.

import { HOLD_CLASSES } from "../match/break-classes";
import { moneyText } from "../money-text";
import { dayChart, differenceCharts } from "./charts";
import { type Cell, esc, htmlTable, REPORT_CSS } from "./html-parts";
import { changedSinceRun, type ReportData, type StatementRow } from "./report-data";
import * as tables from "./report-tables";

const tableHtml = (d: tables.TableData) => htmlTable(d.header, d.rows, d.right);

const isZero = (amount: string) => /^-?0*(\.0*)?$/.test(amount);

/** How the sections link a break id (the console links its break page; the file does not). */
interface SectionOptions {
  breakCell?: (breakId: string) => Cell;
}

function verdictLine(data: ReportData): string {
  const run = data.run;
  const verdict = run?.verdict ?? "no run yet";
  return `<p><span class="verdict ${esc(verdict)}">${esc(verdict)}</span> as of ${esc(run?.asOf ?? "-")}; open breaks ${data.openBreaks}, pending ${data.pendingItems}, accepted ${data.acceptedBreaks}.${changedSinceRun(data) ? ` <span class="muted">(${esc(changedSinceRun(data) ?? "")})</span>` : ""}</p>
${run && run.reasons.length > 0 ? `<ul>${run.reasons.map((r) => `<li>${esc(r)}</li>`).join("")}</ul>` : ""}`;
}

/** Days with a difference in some currency shown; the days without one folded away. */
function statementSection(data: ReportData): string {
  const days = new Map<string, StatementRow[]>();
  for (const r of data.statement) days.set(r.day, [...(days.get(r.day) ?? []), r]);
  const differing = [...days.values()].filter((rows) => rows.some((r) => !isZero(r.difference)));
  const quiet = [...days.values()].filter((rows) => rows.every((r) => isZero(r.difference)));
  const table = (groups: StatementRow[][]) => tableHtml(tables.statementTable(groups.flat()));
  return `<h2>Daily statement (difference = timing + breaks + pending + unexplained)</h2>
<details open><summary>${differing.length} day${differing.length === 1 ? "" : "s"} with a difference</summary>${table(differing)}</details>
<details><summary>${quiet.length} day${quiet.length === 1 ? "" : "s"} without a difference</summary>${table(quiet)}</details>`;
}

/** Every section of the report (the page's body without its title). */
export function reportSections(data: ReportData, opts: SectionOptions = {}): string {
  const breakCell = opts.breakCell ?? ((id: string) => id);
  const allClasses = [
    ...new Set([...data.byClass, ...data.acceptedByClass].map((b) => b.class)),
  ].sort();
  const actionable = data.byClassAndDay.filter((r) => !HOLD_CLASSES.has(r.class));
  const holds = data.byClassAndDay.filter((r) => HOLD_CLASSES.has(r.class));
  return `${verdictLine(data)}
<h2>Provider vs ledger per currency${esc(tables.scopeText(data))}: the bridge (${tables.BRIDGE_RULE})</h2>
${tableHtml(tables.currencyTable(data))}
${tables.entitySectionTitle(data) ? `<h2>${esc(tables.entitySectionTitle(data) ?? "")}</h2>\n${tableHtml(tables.entityTable(data))}` : ""}
<h2>Open differences by class, per currency (${tables.EFFECT_RULE})</h2>
${differenceCharts(
  data.byClass.filter((b) => !HOLD_CLASSES.has(b.class)),
  allClasses,
)}
${tableHtml(tables.classTable(data.byClass))}
<h2>Overdue open breaks per currency (${tables.DUE_RULE}; ${tables.OVERDUE_RULE})</h2>
${data.overdue.length === 0 ? "<p>No overdue breaks.</p>" : tableHtml(tables.queueTotalsTable(data.overdue))}
<h2>Breaks to work on, by class and day</h2>
${dayChart(actionable, { label: "open breaks", allClasses, empty: "No open breaks to work on." })}
<h2>Holds to watch: stale authorizations by day</h2>
${dayChart(holds, { label: "stale authorizations", allClasses, empty: "No stale authorizations." })}
${tableHtml(tables.holdsTable(data))}
<h2>Break queue (most urgent first)</h2>
${htmlTable(
  [
    "priority",
    "class",
    "status",
    "amount",
    "record age (days)",
    "assignee",
    "provider ref",
    "entry",
    "detail",
    "break id",
  ],
  data.queue.map((q) => [
    `P${q.priority}`,
    q.class,
    q.status,
    moneyText(q.amount, q.currency),
    q.ageDays === null ? "" : String(q.ageDays),
    q.assignee ?? "",
    q.providerRef ?? "",
    q.entryId ?? "",
    q.detail,
    breakCell(q.breakId),
  ]),
  new Set([3, 4]),
)}
<h2>Accepted differences</h2>
${tableHtml(tables.classTable(data.acceptedByClass))}
${htmlTable(
  ["accepted at", "by", "class", "amount", "reason", "break id"],
  data.accepted.map((a) => [
    a.acceptedAt,
    a.acceptedBy,
    a.class,
    moneyText(a.amount, a.currency),
    a.reason,
    breakCell(a.breakId),
  ]),
  new Set([3]),
)}
${statementSection(data)}
<h2>Fees by type</h2>
${htmlTable(
  ["fee type", "currency", "provider", "ledger", "difference"],
  data.fees.map((f) => [
    f.feeType,
    f.currency,
    moneyText(f.providerTotal, f.currency),
    moneyText(f.ledgerTotal, f.currency),
    moneyText(f.difference, f.currency),
  ]),
  new Set([2, 3, 4]),
)}
<h2>Sync health</h2>
${htmlTable(
  ["stream", "watermark", "lag (min)", "last run", "windows to re-read", "serviceIds due"],
  data.syncHealth.map((s) => [
    s.stream,
    s.watermark ?? "",
    s.lagMinutes === null ? "" : String(s.lagMinutes),
    s.lastOutcome ?? "",
    String(s.windowsToReread),
    s.serviceIdsDue === null ? "" : String(s.serviceIdsDue),
  ]),
  new Set([2, 4, 5]),
)}`;
}

/** The whole page. */
export function renderHtml(data: ReportData): string {
  const title = `Reconciliation report${tables.scopeText(data)}${data.date ? ` ${data.date}` : ""}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>${REPORT_CSS}</style></head><body>
<h1>${esc(title)}</h1>
${reportSections(data)}
<p class="muted" style="font-size:12px">Generated by merchantkit reconciler; run ${esc(data.run?.id ?? "-")}.</p>
</body></html>
`;
}
