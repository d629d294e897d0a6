// The report's SVG charts: open breaks per day stacked by class (actionable breaks and holds
// drawn apart, with a labelled y axis and readable day labels), and the open differences of
// each currency by class (one chart per currency: currencies are never put on one scale).
// Bar lengths are pixels, so they come from Number(amount); every figure written is the exact
// decimal text.
import { BREAK_CLASSES } from "../match/break-classes";
import { moneyText } from "../money-text";
import { esc, htmlTable } from "./html-parts";
import type { ClassTotal, DayClassRow } from "./report-data";

const DAY_MS = 86_400_000;

/** Every UTC day from the first to the last of `days` (YYYY-MM-DD), so gaps keep their place. */
export function calendarDays(days: readonly string[]): string[] {
  const sorted = [...days].sort();
  const first = sorted[0];
  const last = sorted[sorted.length - 1];
  if (first === undefined || last === undefined) return [];
  const out: string[] = [];
  for (let t = Date.parse(`${first}T00:00:00Z`); t <= Date.parse(`${last}T00:00:00Z`); t += DAY_MS)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/** "12.30 USD, -9.17 EUR": a day's money, one figure per currency (never added together). */
function moneyList(money: readonly { currency: string; amount: string }[]): string {
  return money.map((m) => moneyText(m.amount, m.currency)).join(", ");
}

/**
 * Paul Tol's "muted" scheme (colour-blind safe) plus black and grey: one colour per break class,
 * fixed by the class's place in BREAK_CLASSES so a class has the same colour in every report.
 */
const PALETTE = [
  "#332288",
  "#88CCEE",
  "#44AA99",
  "#117733",
  "#999933",
  "#DDCC77",
  "#CC6677",
  "#882255",
  "#AA4499",
  "#000000",
  "#BBBBBB",
];

/** The colour of a class (classes outside BREAK_CLASSES take the next colours in `others`). */
function classColour(others: readonly string[], cls: string): string {
  const known = (BREAK_CLASSES as readonly string[]).indexOf(cls);
  const i = known >= 0 ? known : BREAK_CLASSES.length + [...others].sort().indexOf(cls);
  return PALETTE[Math.max(i, 0) % PALETTE.length] as string;
}

function legend(classes: readonly string[], all: readonly string[]): string {
  return `<div>${classes
    .map(
      (c) => `<span class="key"><i style="background:${classColour(all, c)}"></i>${esc(c)}</span>`,
    )
    .join("")}</div>`;
}

/** A round step for about four axis ticks up to `max`. */
function tickStep(max: number): number {
  const raw = Math.max(1, max / 4);
  const power = 10 ** Math.floor(Math.log10(raw));
  return ([1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw) as number;
}

/**
 * Stacked bars of counts per day and class, with a y axis (ticks and gridlines), day labels
 * rotated so they never overlap, and a legend. `allClasses` fixes the colours across charts.
 */
export function dayChart(
  rows: readonly DayClassRow[],
  opts: { label: string; allClasses: readonly string[]; empty: string },
): string {
  // Days are placed by date: a day without breaks is an empty slot, not left out.
  const days = calendarDays([...new Set(rows.map((r) => r.day))]);
  if (days.length === 0) return `<p class="muted">${esc(opts.empty)}</p>`;
  const classes = [...new Set(rows.map((r) => r.class))].sort();
  const count = new Map(rows.map((r) => [`${r.day} ${r.class}`, r.count]));
  const money = new Map(rows.map((r) => [`${r.day} ${r.class}`, moneyList(r.money)]));
  const totals = days.map((d) => classes.reduce((s, c) => s + (count.get(`${d} ${c}`) ?? 0), 0));
  const step = tickStep(Math.max(...totals));
  const top = Math.ceil(Math.max(...totals) / step) * step;
  const H = 160;
  const left = 48;
  const bar = Math.max(4, Math.min(22, Math.floor(720 / days.length) - 2));
  const W = left + days.length * (bar + 2) + 10;
  const y = (n: number) => 10 + H - (n / top) * H;
  const parts: string[] = [];
  for (let t = 0; t <= top; t += step)
    parts.push(
      `<line x1="${left - 4}" x2="${W}" y1="${y(t)}" y2="${y(t)}" stroke="${t === 0 ? "#6b7280" : "#e3e7ee"}"/>`,
      `<text x="${left - 8}" y="${y(t) + 4}" font-size="11" text-anchor="end">${t}</text>`,
    );
  const every = Math.ceil(days.length / 16);
  days.forEach((day, i) => {
    const x = left + i * (bar + 2);
    let base = 0;
    for (const cls of classes) {
      const n = count.get(`${day} ${cls}`) ?? 0;
      if (n === 0) continue;
      parts.push(
        `<rect x="${x}" y="${y(base + n)}" width="${bar}" height="${y(base) - y(base + n)}" fill="${classColour(opts.allClasses, cls)}"><title>${esc(day)} ${esc(cls)}: ${n} (${esc(money.get(`${day} ${cls}`) ?? "")})</title></rect>`,
      );
      base += n;
    }
    if (i % every === 0)
      parts.push(
        `<text transform="translate(${x + bar / 2},${H + 16}) rotate(-45)" font-size="11" text-anchor="end">${esc(day.slice(5))}</text>`,
      );
  });
  parts.push(
    `<text transform="translate(12,${10 + H / 2}) rotate(-90)" font-size="11" text-anchor="middle">${esc(opts.label)}</text>`,
  );
  return `<figure><svg role="img" aria-label="${esc(opts.label)} by class and day" width="${W}" height="${H + 56}" viewBox="0 0 ${W} ${H + 56}" xmlns="http://www.w3.org/2000/svg">${parts.join("")}<text x="${W / 2}" y="${H + 54}" font-size="11" text-anchor="middle">day of the record (UTC, month-day)</text></svg>${legend(classes, opts.allClasses)}${dayMoneyTable(rows)}</figure>`;
}

/** Beside the bars: each day's count and money per class (signed effects, per currency). */
function dayMoneyTable(rows: readonly DayClassRow[]): string {
  return `<details><summary>counts and money by day</summary>${htmlTable(
    ["day", "class", "count", "money (provider - ledger)"],
    rows.map((r) => [r.day, r.class, String(r.count), moneyList(r.money)]),
    new Set([2, 3]),
  )}</details>`;
}

/** One small horizontal bar chart per currency: the open amount of each class. */
export function differenceCharts(
  totals: readonly ClassTotal[],
  allClasses: readonly string[],
): string {
  const currencies = [...new Set(totals.map((t) => t.currency))].sort();
  if (currencies.length === 0) return `<p class="muted">No open differences.</p>`;
  return `<div class="charts">${currencies
    .map((currency) => {
      const rows = totals.filter((t) => t.currency === currency);
      const max = Math.max(...rows.map((r) => Math.abs(Number(r.amount))));
      const rowH = 22;
      const labelW = 200;
      const barW = 200;
      const parts = rows.map((r, i) => {
        const w = max > 0 ? Math.max(2, Math.round((Math.abs(Number(r.amount)) / max) * barW)) : 0;
        const yy = 24 + i * rowH;
        return [
          `<text x="${labelW - 6}" y="${yy + 14}" font-size="12" text-anchor="end">${esc(r.class)} (${r.count})</text>`,
          `<rect x="${labelW}" y="${yy + 3}" width="${w}" height="${rowH - 8}" fill="${classColour(allClasses, r.class)}"><title>${esc(r.class)}: ${esc(moneyText(r.amount, currency))}</title></rect>`,
          `<text x="${labelW + w + 6}" y="${yy + 14}" font-size="12">${esc(moneyText(r.amount, currency))}</text>`,
        ].join("");
      });
      const W = labelW + barW + 130;
      const H = 30 + rows.length * rowH;
      return `<svg role="img" aria-label="open differences in ${esc(currency)}" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" xmlns="http://www.w3.org/2000/svg"><text x="0" y="14" font-size="13" font-weight="600">${esc(currency)}</text>${parts.join("")}</svg>`;
    })
    .join("")}</div>`;
}
