// The report as one self-contained HTML page: inline CSS and SVG charts, no script, no network,
// so it opens from a mail attachment or a shared drive.
import type { ReportData } from "./report-data";

const esc = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

const COLORS = [
  "#c0392b",
  "#e67e22",
  "#f1c40f",
  "#27ae60",
  "#16a085",
  "#2980b9",
  "#8e44ad",
  "#2c3e50",
  "#d35400",
  "#7f8c8d",
  "#e84393",
];

/**
 * Bar heights are pixels, so they are computed from Number(amount): the figures written next to
 * the bars are the exact decimal strings.
 */
function px(value: string | number, max: number, height: number): number {
  const n = Math.abs(Number(value));
  return max > 0 ? Math.max(1, Math.round((n / max) * height)) : 0;
}

/** Stacked bars: open breaks per day (the day of the record), one colour per class. */
function breaksChart(data: ReportData): string {
  const days = [...new Set(data.byClassAndDay.map((r) => r.day))].sort();
  const classes = [...new Set(data.byClassAndDay.map((r) => r.class))].sort();
  if (days.length === 0) return "<p>No open breaks.</p>";
  const totals = days.map((d) =>
    data.byClassAndDay.filter((r) => r.day === d).reduce((s, r) => s + r.count, 0),
  );
  const max = Math.max(...totals);
  const H = 180;
  const bar = Math.max(8, Math.min(28, Math.floor(760 / days.length) - 4));
  const W = 60 + days.length * (bar + 4);
  const parts: string[] = [];
  days.forEach((day, i) => {
    let y = H + 10;
    const x = 50 + i * (bar + 4);
    for (const cls of classes) {
      const n = data.byClassAndDay.find((r) => r.day === day && r.class === cls)?.count ?? 0;
      if (n === 0) continue;
      const h = px(n, max, H);
      y -= h;
      parts.push(
        `<rect x="${x}" y="${y}" width="${bar}" height="${h}" fill="${COLORS[classes.indexOf(cls) % COLORS.length]}"><title>${esc(day)} ${esc(cls)}: ${n}</title></rect>`,
      );
    }
    if (days.length <= 40 && (i % Math.ceil(days.length / 10) === 0 || i === days.length - 1))
      parts.push(`<text x="${x}" y="${H + 26}" font-size="10">${esc(day.slice(5))}</text>`);
  });
  parts.push(
    `<text x="0" y="20" font-size="10">${max}</text><line x1="45" y1="${H + 10}" x2="${W}" y2="${H + 10}" stroke="#999"/>`,
  );
  const legend = classes
    .map(
      (c, i) =>
        `<span class="key"><i style="background:${COLORS[i % COLORS.length]}"></i>${esc(c)}</span>`,
    )
    .join(" ");
  return `<svg role="img" aria-label="open breaks by class and day" width="${W}" height="${H + 34}" viewBox="0 0 ${W} ${H + 34}" xmlns="http://www.w3.org/2000/svg">${parts.join("")}</svg><div>${legend}</div>`;
}

/** Grouped bars per currency: what the provider moved and what the ledger booked (absolute). */
function currencyChart(data: ReportData): string {
  if (data.currencies.length === 0) return "<p>No money movements.</p>";
  const max = Math.max(
    ...data.currencies.flatMap((c) => [
      Math.abs(Number(c.providerTotal)),
      Math.abs(Number(c.ledgerTotal)),
    ]),
  );
  const H = 160;
  const W = 80 + data.currencies.length * 90;
  const parts = data.currencies.map((c, i) => {
    const x = 40 + i * 90;
    const hp = px(c.providerTotal, max, H);
    const hl = px(c.ledgerTotal, max, H);
    return [
      `<rect x="${x}" y="${H + 10 - hp}" width="30" height="${hp}" fill="#2980b9"><title>provider ${esc(c.currency)} ${esc(c.providerTotal)}</title></rect>`,
      `<rect x="${x + 32}" y="${H + 10 - hl}" width="30" height="${hl}" fill="#27ae60"><title>ledger ${esc(c.currency)} ${esc(c.ledgerTotal)}</title></rect>`,
      `<text x="${x + 14}" y="${H + 26}" font-size="11">${esc(c.currency)}</text>`,
    ].join("");
  });
  return `<svg role="img" aria-label="amounts by currency" width="${W}" height="${H + 34}" viewBox="0 0 ${W} ${H + 34}" xmlns="http://www.w3.org/2000/svg">${parts.join("")}<line x1="30" y1="${H + 10}" x2="${W}" y2="${H + 10}" stroke="#999"/></svg><div><span class="key"><i style="background:#2980b9"></i>provider</span> <span class="key"><i style="background:#27ae60"></i>ledger</span> (absolute net amounts)</div>`;
}

function htmlTable(
  header: string[],
  rows: string[][],
  numeric: ReadonlySet<number> = new Set(),
): string {
  const head = header
    .map((h, i) => `<th${numeric.has(i) ? ' class="n"' : ""}>${esc(h)}</th>`)
    .join("");
  const body = rows
    .map(
      (r) =>
        `<tr>${r.map((c, i) => `<td${numeric.has(i) ? ' class="n"' : ""}>${esc(c)}</td>`).join("")}</tr>`,
    )
    .join("\n");
  return `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

/** The whole page. */
export function renderHtml(data: ReportData): string {
  const run = data.run;
  const verdict = run?.verdict ?? "no run yet";
  const title = `Reconciliation report${data.date ? ` ${data.date}` : ""}`;
  const statementRows = data.statement.map((r) => [
    r.day,
    r.currency,
    r.providerTotal,
    r.ledgerTotal,
    r.difference,
    r.timing,
    r.explainedByBreaks,
    r.pending,
    r.unexplained,
    Object.entries(r.byClass)
      .map(([k, v]) => `${k} ${v}`)
      .join(", "),
  ]);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.4 system-ui,-apple-system,Segoe UI,sans-serif;margin:24px;color:#222}
h1{font-size:22px}h2{font-size:17px;margin-top:28px;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #ddd;padding:3px 8px;vertical-align:top}
th{background:#f4f4f4;text-align:left}.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.verdict{display:inline-block;padding:4px 10px;border-radius:4px;color:#fff;font-weight:600}
.reconciled{background:#27ae60}.reconciled_with_pending{background:#16a085}.breaks{background:#c0392b}.incomplete{background:#7f8c8d}
.key{margin-right:10px;font-size:12px}.key i{display:inline-block;width:10px;height:10px;margin-right:4px}
</style></head><body>
<h1>${esc(title)}</h1>
<p><span class="verdict ${esc(verdict)}">${esc(verdict)}</span> as of ${esc(run?.asOf ?? "-")}; open breaks ${data.openBreaks}, pending ${data.pendingItems}.</p>
${run && run.reasons.length > 0 ? `<ul>${run.reasons.map((r) => `<li>${esc(r)}</li>`).join("")}</ul>` : ""}
<h2>Amounts by currency</h2>
${currencyChart(data)}
${htmlTable(
  ["currency", "provider", "ledger", "difference"],
  data.currencies.map((c) => [c.currency, c.providerTotal, c.ledgerTotal, c.difference]),
  new Set([1, 2, 3]),
)}
<h2>Open breaks by class and day</h2>
${breaksChart(data)}
${htmlTable(
  ["class", "count", "amount"],
  data.byClass.map((b) => [b.class, String(b.count), `${b.amount} ${b.currency ?? ""}`]),
  new Set([1, 2]),
)}
<h2>Break queue (most urgent first)</h2>
${htmlTable(
  [
    "priority",
    "class",
    "status",
    "amount",
    "age (days)",
    "provider ref",
    "entry",
    "detail",
    "break id",
  ],
  data.queue.map((q) => [
    `P${q.priority}`,
    q.class,
    q.status,
    `${q.amount} ${q.currency ?? ""}`,
    q.ageDays === null ? "" : String(q.ageDays),
    q.providerRef ?? "",
    q.entryId ?? "",
    q.detail,
    q.breakId,
  ]),
  new Set([3, 4]),
)}
<h2>Daily statement (difference = timing + breaks + pending + unexplained)</h2>
${htmlTable(["day", "currency", "provider", "ledger", "difference", "timing", "breaks", "pending", "unexplained", "by class"], statementRows, new Set([2, 3, 4, 5, 6, 7, 8]))}
<h2>Open authorizations by age</h2>
${htmlTable(
  ["currency", "age", "count", "still held"],
  data.staleAuthorizations.map((a) => [a.currency, a.bucket, String(a.count), a.openHold]),
  new Set([2, 3]),
)}
<h2>Fees by type</h2>
${htmlTable(
  ["fee type", "currency", "provider", "ledger", "difference"],
  data.fees.map((f) => [f.feeType, f.currency, f.providerTotal, f.ledgerTotal, f.difference]),
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
)}
<p style="color:#888;font-size:12px">Generated by merchantkit reconciler; run ${esc(run?.id ?? "-")}.</p>
</body></html>
`;
}
