// The report's tables as data (header, rows, right-aligned columns), shared by the text and
// the HTML rendering so both show the same columns with the same amounts.
import { moneyText } from "../money-text";
import type { AuditRow } from "../workflow/break-actions";
import type { BreakResolution } from "../workflow/break-resolution";
import type { QueueTotal } from "../workflow/queue-totals";
import type { BridgeRow, ClassTotal, ReportData, StatementRow } from "./report-data";

/** What the bridge's columns add up to, said beside it wherever it is shown. */
export const BRIDGE_RULE = "difference = timing + open breaks + pending + accepted + unexplained";
/** How a break's amount in a class table is signed. */
export const EFFECT_RULE =
  "signed effect, provider - ledger; a break touching two currencies counts under each";

export interface TableData {
  header: string[];
  rows: string[][];
  /** Columns to right-align (amounts, counts). */
  right: ReadonlySet<number>;
}

const BRIDGE_HEADER = [
  "currency",
  "provider",
  "ledger",
  "difference",
  "timing",
  "open breaks",
  "pending",
  "accepted",
  "unexplained",
];

/** One bridge row's cells, each amount in its currency. */
function bridgeCells(c: BridgeRow): string[] {
  return [
    c.currency,
    ...[
      c.providerTotal,
      c.ledgerTotal,
      c.difference,
      c.timing,
      c.openBreaks,
      c.pending,
      c.accepted,
      c.unexplained,
    ].map((amount) => moneyText(amount, c.currency)),
  ];
}

/** How the report names an entity: the merchant itself is "(merchant)". */
const entityName = (entity: string) => (entity === "" ? "(merchant)" : entity);

/** " of entity M2" for a report of some entities; "" for the whole platform's. */
export function scopeText(data: ReportData): string {
  if (data.scope === undefined) return "";
  return ` of ${data.scope.length === 1 ? "entity" : "entities"} ${data.scope.map(entityName).join(", ")}`;
}

/**
 * The heading of the per-entity bridges, when they are shown: a platform's report with a
 * sub-merchant's lines, or a report of several entities (never a platform total there).
 */
export function entitySectionTitle(data: ReportData): string | undefined {
  if (data.scope !== undefined)
    return data.scope.length > 1
      ? "Each entity's bridge per currency (the table above is these entities' total)"
      : undefined;
  return data.entities.some((e) => e.entity !== "")
    ? "Each entity's bridge per currency (the table above is the platform's total)"
    : undefined;
}

/** Each entity's bridge per currency; the merchant itself is "(merchant)". */
export function entityTable(data: ReportData): TableData {
  return {
    header: ["entity", ...BRIDGE_HEADER],
    rows: data.entities.map((e) => [entityName(e.entity), ...bridgeCells(e)]),
    right: new Set([2, 3, 4, 5, 6, 7, 8, 9]),
  };
}

/** The bridge per currency: difference = timing + open breaks + pending + accepted + unexplained. */
export function currencyTable(data: ReportData): TableData {
  return {
    header: BRIDGE_HEADER,
    rows: data.currencies.map(bridgeCells),
    right: new Set([1, 2, 3, 4, 5, 6, 7, 8]),
  };
}

/** One line per class and currency: amounts are never added across currencies. */
export function classTable(rows: readonly ClassTotal[]): TableData {
  return {
    header: ["class", "currency", "count", "effect (provider - ledger)"],
    rows: rows.map((b) => [b.class, b.currency, String(b.count), moneyText(b.amount, b.currency)]),
    right: new Set([2, 3]),
  };
}

/** How the due dates are set, for the overdue section's heading. */
export const DUE_RULE =
  "due = the record's time + its class's days, halved from the large amount; RECONCILER_DUE_DAYS, RECONCILER_DUE_LARGE_AMOUNT";
/**
 * What the overdue section counts, said beside it: `breaks list --overdue`'s totals, so the
 * breaks and money at stake include holds, which have no effect on the bridge.
 */
export const OVERDUE_RULE =
  "as breaks list --overdue: each break in its own currency, stale authorizations included (a hold has no effect); effect: every overdue break touching the currency";

export function holdsTable(data: ReportData): TableData {
  return {
    header: ["currency", "record age", "count", "still held"],
    rows: data.staleAuthorizations.map((a) => [
      a.currency,
      a.bucket,
      String(a.count),
      moneyText(a.openHold, a.currency),
    ]),
    right: new Set([2, 3]),
  };
}

/** A statement row's amounts in the order the table and statement.csv show them. */
export const statementAmounts = (r: StatementRow): string[] => [
  r.providerTotal,
  r.ledgerTotal,
  r.difference,
  r.timing,
  r.explainedByBreaks,
  r.accepted,
  r.pending,
  r.unexplained,
];

/** The daily statement, the day written on its first currency's line only. */
export function statementTable(rows: readonly StatementRow[]): TableData {
  return {
    header: [
      "day",
      "currency",
      "provider",
      "ledger",
      "difference",
      "timing",
      "breaks",
      "of which accepted",
      "pending",
      "unexplained",
      "by class",
    ],
    rows: rows.map((r, i) => [
      i === 0 || rows[i - 1]?.day !== r.day ? r.day : "",
      r.currency,
      ...statementAmounts(r).map((amount) => moneyText(amount, r.currency)),
      Object.entries(r.byClass)
        .map(([k, v]) => `${k} ${moneyText(v, r.currency)}`)
        .join(", "),
    ]),
    right: new Set([2, 3, 4, 5, 6, 7, 8, 9]),
  };
}

/**
 * A break's audit history, oldest first, with the class and amount at each action; closed by
 * its resolution, which is the run's and not an audit row.
 */
export function historyTable(
  history: readonly AuditRow[],
  resolved?: BreakResolution | undefined,
): TableData {
  const rows = history.map((h) => [
    h.at,
    h.actor,
    h.action,
    h.text,
    h.class,
    moneyText(h.amount, h.currency),
  ]);
  if (resolved)
    rows.push([resolved.at, `match run ${resolved.runId}`, "resolved", resolved.why, "", ""]);
  return {
    header: ["at", "who", "action", "text", "class then", "amount then"],
    rows,
    right: new Set([5]),
  };
}

/** The queue filter's totals per currency (every page): never one sum across currencies. */
export function queueTotalsTable(totals: readonly QueueTotal[]): TableData {
  return {
    header: ["currency", "breaks", "at stake", "effect (provider - ledger)"],
    rows: totals.map((t) => [
      t.currency,
      t.count.toLocaleString("en-US"),
      moneyText(t.atStake, t.currency),
      moneyText(t.effect, t.currency),
    ]),
    right: new Set([1, 2, 3]),
  };
}
