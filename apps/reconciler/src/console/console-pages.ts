// The console's pages, rendered on the server: the live report, the break queue with its
// filters and sorting, one break with its records, history and actions, and the login. Every
// text from the database or the request goes through esc().
import type { ReplayState } from "../db/standby-replay";
import { BREAK_CLASSES } from "../match/break-classes";
import { moneyText } from "../money-text";
import { type Cell, esc, htmlTable, type RawCell, REPORT_CSS } from "../report/html-parts";
import { reportSections } from "../report/render-html";
import type { ReportData } from "../report/report-data";
import { historyTable, queueTotalsTable, scopeText } from "../report/report-tables";
import type { ApprovalRequest } from "../workflow/approvals";
import type {
  BreakDetail,
  BreakFilter,
  BreakPage,
  BreakRow,
  QueueSort,
} from "../workflow/break-queries";
import { QUEUE_SORTS } from "../workflow/break-queries";
import type { ActiveManualMatch } from "../workflow/manual-match";
import { queueSearch } from "../workflow/queue-search";
import type { QueueTotal } from "../workflow/queue-totals";
import { labelledFields, recordKindOf } from "../workflow/record-fields";
import { type Capability, may, type Role } from "../workflow/roles";
import { UNASSIGNED_FILTER } from "../workflow/typed-text";

const CONSOLE_CSS = `
header{display:flex;gap:18px;align-items:center;border-bottom:1px solid #d8dde6;margin:-24px -24px 16px;padding:10px 24px;background:#1d2430;color:#fff}
header a{color:#fff;text-decoration:none;font-weight:600}header .who{margin-left:auto;font-size:13px;color:#cbd5e1}
header form{display:inline;margin:0}header button{background:none;border:1px solid #64748b;color:#fff;border-radius:4px;padding:2px 8px;cursor:pointer}
th{white-space:nowrap}a{color:#0b5cad}form.filters{display:flex;gap:12px;flex-wrap:wrap;align-items:end;margin:8px 0}
label{display:flex;flex-direction:column;font-size:12px;color:#4b5563;gap:2px}
input,select,textarea{font:inherit;padding:4px 6px;border:1px solid #cbd5e1;border-radius:4px}
button.primary{background:#0b5cad;color:#fff;border:0;border-radius:4px;padding:6px 12px;cursor:pointer;font-weight:600}
button.secondary{background:#fff;color:#1d2430;border:1px solid #cbd5e1;border-radius:4px;padding:5px 10px;cursor:pointer}
.actions{display:grid;grid-template-columns:repeat(auto-fit,minmax(260px,1fr));gap:16px;margin:12px 0}
.actions form{border:1px solid #e3e7ee;border-radius:6px;padding:10px;display:flex;flex-direction:column;gap:6px}
.error{background:#fde8e8;border:1px solid #f5b5b5;color:#8a1c1c;padding:8px 12px;border-radius:4px}
.status{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600;background:#e5e7eb}
.status-open{background:#fde8e8;color:#8a1c1c}.status-accepted{background:#dcfce7;color:#14532d}.status-pending{background:#e0f2fe;color:#075985}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:6px 0}dt{color:#6b7280}dd{margin:0;font-variant-numeric:tabular-nums}
.cols{display:flex;gap:32px;flex-wrap:wrap}.cols>section{min-width:320px}
nav.pager{display:flex;gap:16px;margin:8px 0}
td,dd{overflow-wrap:anywhere}#queue td:nth-child(5),#history td:nth-child(1){white-space:nowrap}#queue td:nth-child(2),#queue td:nth-child(10),.status{white-space:nowrap;overflow-wrap:normal}
#history td:nth-child(4){white-space:pre-wrap}
`;

export interface PageContext {
  /** The signed-in account's name. */
  actor: string;
  role: Role;
  /** The entities the account is limited to ('' the merchant itself); null: every entity. */
  entities?: readonly string[] | null;
  formToken: string;
}

/** "; entities M2, (merchant)" for a limited account, shown beside its role. */
const limitText = (ctx: PageContext) =>
  ctx.entities
    ? `; entities ${ctx.entities.map((e) => (e === "" ? MERCHANT_ENTITY : e)).join(", ")}`
    : "";

function layout(title: string, body: string, ctx?: PageContext): string {
  const nav = ctx
    ? `<header><a href="/">Report</a><a href="/breaks">Break queue</a><span class="who">signed in as ${esc(ctx.actor)} (${esc(ctx.role)}${esc(limitText(ctx))})</span><form method="post" action="/logout"><input type="hidden" name="form_token" value="${esc(ctx.formToken)}"><button>Sign out</button></form></header>`
    : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(title)} · reconciler</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>${REPORT_CSS}${CONSOLE_CSS}</style></head><body>
${nav}<h1>${esc(title)}</h1>
${body}
<script src="/console.js"></script>
</body></html>
`;
}

const breakLink = (id: string): Cell => ({
  html: `<a href="/breaks/${encodeURIComponent(id)}">${esc(id)}</a>`,
});

const statusBadge = (status: string): RawCell => ({
  html: `<span class="status status-${esc(status)}">${esc(status)}</span>`,
});

/** The sign-in form (after a refusal, with the name typed kept; never the password). */
export function loginPage(message?: string, name = ""): string {
  return layout(
    "Reconciler console",
    `${message ? `<p class="error" role="alert">${esc(message)}</p>` : ""}
<form method="post" action="/login" class="filters" id="login">
<label>Name<input name="name" required maxlength="100" autocomplete="username" value="${esc(name)}"></label>
<label>Password<input name="password" type="password" required autocomplete="current-password"></label>
<button class="primary">Sign in</button></form>
<p class="muted">Accounts are added by whoever runs the reconciler: <code>reconciler users add NAME --role viewer|preparer|approver</code>.</p>`,
  );
}

export function messagePage(title: string, message: string, ctx?: PageContext): string {
  return layout(title, `<p class="error" role="alert">${esc(message)}</p>`, ctx);
}

/**
 * The report (every entity's, or the account's entities'); one day's with ?date=YYYY-MM-DD, as
 * `reconciler report --date`, and one entity's with ?entity= (`entity`, the queue's spelling), as
 * `reconciler report --entity`; `replay` when it was read on a hot standby (how far behind the
 * primary it is).
 */
export function reportPage(
  data: ReportData,
  ctx: PageContext,
  entity = "",
  replay?: ReplayState,
): string {
  const day = `<form method="get" action="/" class="filters" id="day"><label>Day<input type="date" name="date" value="${esc(data.date ?? "")}"></label><label>Entity<input name="entity" value="${esc(entity)}" placeholder="${ctx.entities ? "your entities" : "every entity"}, or ${MERCHANT_ENTITY}"></label><button class="secondary">Show</button>${data.date || entity ? ` <a href="/">every day${ctx.entities ? ", your entities" : ", every entity"}</a>` : ""}</form>`;
  return layout(
    `Reconciliation report${scopeText(data)}${data.date ? ` of ${data.date}` : ""}`,
    `<p><a href="/breaks">Work the break queue →</a></p>${replayNote(replay)}${day}${reportSections(data, { breakCell: breakLink })}`,
    ctx,
  );
}

function replayNote(replay: ReplayState | undefined): string {
  if (!replay) return "";
  const behind =
    replay.behindSeconds === 0
      ? "it has replayed all the primary sent"
      : `${replay.behindSeconds} s behind the primary`;
  const last = replay.replayedAt ? `; last change replayed: ${replay.replayedAt}` : "";
  return `<p class="note" id="standby">Read from a standby: ${esc(behind + last)}.</p>`;
}

const STATUS_CHOICES: [string, string][] = [
  ["", "queue (open + pending)"],
  ["open", "open"],
  ["pending", "pending"],
  ["accepted", "accepted"],
  ["resolved", "resolved"],
  ["all", "all"],
];

function select(name: string, current: string, options: readonly [string, string][]): string {
  return `<select name="${name}">${options
    .map(
      ([value, label]) =>
        `<option value="${esc(value)}"${value === current ? " selected" : ""}>${esc(label)}</option>`,
    )
    .join("")}</select>`;
}

export interface QueueQuery {
  status: string;
  class: string;
  /** ISO 4217 codes, comma-separated ("" for every currency). */
  currency: string;
  assignee: string;
  sort: QueueSort;
  descending: boolean;
  /** 1 for the first page of QUEUE_PAGE_SIZE rows. */
  page: number;
  /** Text found in ids, records and cards ("" for none), as breaks list --search. */
  search: string;
  /** A sub-merchant's merchantNo, MERCHANT_ENTITY for the merchant itself, "" for every entity. */
  entity: string;
  /** Only the overdue breaks. */
  overdue: boolean;
}

/** How the queue names the merchant itself as an entity (its rows' entity is ''). */
export const MERCHANT_ENTITY = "(merchant)";

/** Rows per page of the queue. */
const QUEUE_PAGE_SIZE = 500;

function queueHref(q: QueueQuery, change: Partial<QueueQuery>): string {
  const next = { ...q, ...change };
  const params = new URLSearchParams();
  if (next.status) params.set("status", next.status);
  if (next.class) params.set("class", next.class);
  if (next.currency) params.set("currency", next.currency);
  if (next.assignee) params.set("assignee", next.assignee);
  if (next.sort !== "priority") params.set("sort", next.sort);
  if (next.descending) params.set("dir", "desc");
  if (next.search) params.set("search", next.search);
  if (next.entity) params.set("entity", next.entity);
  if (next.overdue) params.set("overdue", "1");
  if (next.page > 1) params.set("page", String(next.page));
  const text = params.toString();
  return text ? `/breaks?${text}` : "/breaks";
}

const count = (n: number) => n.toLocaleString("en-US");

/**
 * "500 of 3,231 breaks (1–500, page 1 of 7)" and the links to the pages around: the queue says
 * how many breaks match in all and every one can be reached (the filters and sort kept).
 */
function pager(page: BreakPage, q: QueueQuery): { count: string; nav: string } {
  const { rows, total, offset } = page;
  const pages = Math.max(1, Math.ceil(total / QUEUE_PAGE_SIZE));
  const all = `${count(rows.length)} of ${count(total)} break${total === 1 ? "" : "s"}`;
  const where =
    total > QUEUE_PAGE_SIZE || q.page > 1
      ? ` (${rows.length > 0 ? `${count(offset + 1)}–${count(offset + rows.length)}, ` : ""}page ${count(q.page)} of ${count(pages)})`
      : "";
  const links: string[] = [];
  if (q.page > 1)
    links.push(
      `<a rel="prev" href="${esc(queueHref(q, { page: Math.min(q.page - 1, pages) }))}">← previous ${QUEUE_PAGE_SIZE}</a>`,
    );
  if (offset + rows.length < total && rows.length > 0)
    links.push(
      `<a rel="next" href="${esc(queueHref(q, { page: q.page + 1 }))}">next ${Math.min(QUEUE_PAGE_SIZE, total - offset - rows.length)} →</a>`,
    );
  return {
    count: `${all}${where}`,
    nav: links.length > 0 ? `<nav class="pager">${links.join("")}</nav>` : "",
  };
}

export function queuePage(
  page: BreakPage,
  q: QueueQuery,
  ctx: PageContext,
  totals: readonly QueueTotal[] = [],
  /** What the totals leave out (queueTotalsNote), said under them. */
  totalsNote?: string | undefined,
): string {
  const rows: readonly BreakRow[] = page.rows;
  // A new sort starts again at the first page.
  const sortHeader = (label: string, sort: QueueSort) => {
    const active = q.sort === sort;
    const arrow = active ? (q.descending ? " ▲" : " ▼") : "";
    return `<a href="${esc(queueHref(q, { sort, descending: active ? !q.descending : false, page: 1 }))}">${esc(label)}${arrow}</a>`;
  };
  const filters = `<form method="get" action="/breaks" class="filters" id="filters">
<label>Status${select("status", q.status, STATUS_CHOICES)}</label>
<label>Class${select("class", q.class, [["", "every class"], ...BREAK_CLASSES.map((c): [string, string] => [c, c])])}</label>
<label>Currency<input name="currency" value="${esc(q.currency)}" placeholder="every currency (USD,EUR)"></label>
<label>Assignee<input name="assignee" value="${esc(q.assignee)}" placeholder="anyone (none: unassigned)"></label>
<label>Search<input name="search" value="${esc(q.search)}" placeholder="an id, a card, an amount (1,710.47 HKD)"></label>
<label>Entity<input name="entity" value="${esc(q.entity)}" placeholder="${ctx.entities ? "your entities" : "every entity"}, or ${MERCHANT_ENTITY}"></label>
<label><input type="checkbox" name="overdue" value="1"${q.overdue ? " checked" : ""}> overdue only</label>
<label>Sort${select(
    "sort",
    q.sort,
    QUEUE_SORTS.map((s): [string, string] => [s, s.replace("_", " ")]),
  )}</label>
<button class="secondary">Apply</button></form>`;
  const header: Cell[] = [
    { html: sortHeader("priority", "priority") },
    { html: sortHeader("class", "class") },
    "status",
    { html: sortHeader("amount", "amount") },
    { html: sortHeader("occurred", "age") },
    "open for (days)",
    "assignee",
    { html: sortHeader("last action", "last_action") },
    "detail",
    "break id",
  ];
  const table = htmlTable(
    header,
    rows.map((b) => [
      `P${b.priority}`,
      b.class,
      statusBadge(b.status),
      moneyText(b.amount, b.currency),
      b.occurredAt?.slice(0, 10) ?? "",
      b.daysOpen === null ? "" : String(b.daysOpen),
      b.assignee ?? "",
      b.lastAction ? `${b.lastAction} by ${b.lastActor}` : "",
      b.detail,
      breakLink(b.breakId),
    ]),
    new Set([3, 5]),
    ' id="queue"',
  );
  const { count: countText, nav } = pager(page, q);
  // The downloads take the filter shown (and its sort), every page of it.
  const filterQuery = queueHref(q, { page: 1 }).split("?")[1];
  const exportLink = (kind: string, format: string) =>
    `<a download href="${esc(`/export/${kind}.${format}${filterQuery ? `?${filterQuery}` : ""}`)}" id="export-${kind}-${format}">${format.toUpperCase()}</a>`;
  const exports = `<p id="exports">Download this filter: ${["journal", "breaks", "audit"]
    .map((kind) => `${kind} ${exportLink(kind, "csv")} ${exportLink(kind, "xlsx")}`)
    .join(" · ")}</p>`;
  const t = queueTotalsTable(totals);
  const totalsTable =
    (totals.length === 0 ? "" : htmlTable(t.header, t.rows, t.right, ' id="totals"')) +
    (totalsNote ? `<p class="muted" id="totals-note">${esc(totalsNote)}</p>` : "");
  return layout(
    "Break queue",
    `${filters}<p id="count">${esc(countText)}</p>${totalsTable}${exports}${nav}${table}${nav}`,
    ctx,
  );
}

function fieldList(fields: readonly [string, string | null][] | undefined): string {
  if (!fields) return `<p class="muted">none</p>`;
  return `<dl>${labelledFields(fields)
    .map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v ?? "—")}</dd>`)
    .join("")}</dl>`;
}

interface FormField {
  name: string;
  label: string;
  multiline?: boolean;
  /** Optional fields are not `required`. */
  optional?: boolean;
  /** An input's type (text unless given). */
  type?: string;
  value?: string;
}

/**
 * One form of the break page, posted to `path` under the break. Every form carries the break's
 * last audit row as the page showed it (seen_action): a change someone made since makes the
 * action refused (409, naming who), and the same form sent twice is written once.
 */
function breakForm(
  detail: BreakDetail,
  ctx: PageContext,
  form: {
    id: string;
    path: string;
    label: string;
    primary?: boolean;
    fields?: FormField[];
    hidden?: Record<string, string>;
  },
): string {
  const breakId = detail.break.breakId;
  const inputs = (form.fields ?? [])
    .map((f) => {
      const required = f.optional ? "" : " required";
      return f.multiline
        ? `<label>${esc(f.label)}<textarea name="${f.name}" rows="3"${required} maxlength="2000">${esc(f.value ?? "")}</textarea></label>`
        : `<label>${esc(f.label)}<input name="${f.name}" type="${f.type ?? "text"}"${required} maxlength="100" value="${esc(f.value ?? "")}"></label>`;
    })
    .join("");
  const extra = Object.entries({ seen_action: detail.lastActionId, ...form.hidden })
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${esc(value)}">`)
    .join("");
  return `<form method="post" action="/breaks/${encodeURIComponent(breakId)}/${form.path}" id="${form.id}-form">
<input type="hidden" name="form_token" value="${esc(ctx.formToken)}">${extra}
${inputs}<button class="${form.primary ? "primary" : "secondary"}">${esc(form.label)}</button></form>`;
}

/** One form of /breaks/ID/actions (accept, reopen, comment, assign, unassign), its text `field`. */
function actionForm(
  detail: BreakDetail,
  ctx: PageContext,
  action: string,
  label: string,
  field?: FormField,
  hidden: Record<string, string> = {},
): string {
  return breakForm(detail, ctx, {
    id: action,
    path: "actions",
    label,
    primary: action === "accept",
    fields: field ? [field] : [],
    hidden: { action, ...hidden },
  });
}

/** What a person typed into a form the console refused: shown again in that form. */
export interface TypedText {
  action: string;
  text: string;
  /** A write-off's account. */
  account?: string;
  /** A manual match's ids, as typed. */
  entries?: string;
  records?: string;
}

interface BreakPageExtra {
  /** Why the last action was refused. */
  error?: string | undefined;
  typed?: TypedText | undefined;
  /** The accept or write-off waiting for a second approver. */
  pending?: ApprovalRequest | undefined;
  /** The open break after this one in the queue (nextOpenBreak). */
  next?: string | undefined;
  /** The active manual matches holding this break's records (activeManualMatches). */
  manualMatches?: readonly ActiveManualMatch[] | undefined;
}

/**
 * A break's page; after a refused action, with the refusal and what was typed kept (in the
 * comment form when the action's own form is gone: an accept someone else made first).
 */
export function breakPage(
  detail: BreakDetail,
  ctx: PageContext,
  extra: BreakPageExtra = {},
): string {
  const { error, typed, pending, next, manualMatches = [] } = extra;
  const b = detail.break;
  const resolved = detail.resolution;
  const can = (capability: Capability) => may(ctx.role, capability);
  const open = b.status !== "accepted" && b.status !== "resolved";
  // An accept or write-off waits for a second approver: no other one is offered meanwhile.
  const offersAccept = open && !pending && can("accept");
  const offersWriteOff = open && !pending && can("write_off");
  // Pairing records no pass paired changes the figures like an accept: an approver's.
  const offersMatch = open && !pending && can("match");
  const isProposal = b.class === "proposed_match" && b.status !== "resolved";
  const forms: string[] = [];
  // breaks.currency is the provider's; the ledger's side is in its records' currency (a
  // currency_mismatch's ledger amount may be in EUR where the provider's is in SGD).
  const ledgerCurrency = detail.ledgerCurrency ?? b.currency;
  // The forms this page offers.
  const shown = new Set<string>([
    ...(b.status === "accepted" && can("reopen") ? ["reopen"] : []),
    ...(offersAccept ? ["accept"] : []),
    ...(offersWriteOff ? ["write_off"] : []),
    ...(offersMatch ? ["match"] : []),
    ...(isProposal && can("confirm") ? ["confirm"] : []),
    ...(isProposal && can("reject") ? ["reject"] : []),
    ...(can("comment") ? ["comment"] : []),
    // A resolved break is history: only a comment is left to add.
    ...(can("assign") && b.status !== "resolved" ? ["assign"] : []),
    ...(pending && can("approve") ? ["approve", "decline"] : []),
    ...(manualMatches.length > 0 && can("unmatch") ? ["unmatch"] : []),
  ]);
  // What was typed goes back into its form, or into the comment form when that form is gone
  // (an accept someone else made first).
  const keptIn = () =>
    typed && !shown.has(typed.action) && shown.has("comment") ? "comment" : (typed?.action ?? "");
  const kept = (action: string) => (action === keptIn() ? (typed?.text ?? "") : "");
  /** The text field of `action`'s form, with what was typed into it kept. */
  const textField = (action: string, label: string, more: Partial<FormField> = {}): FormField => ({
    name: "text",
    label,
    multiline: true,
    value: kept(action),
    ...more,
  });
  const reason = (action: string) => textField(action, "Reason (required)");
  if (pending) {
    const what =
      pending.action === "accept"
        ? "accept"
        : `write off to ${pending.account}${pending.entryDate ? ` on ${pending.entryDate}` : ""}`;
    const mine = pending.requestedBy === ctx.actor;
    const approval = (decision: string, label: string, primary = false) =>
      breakForm(detail, ctx, {
        id: decision,
        path: "approval",
        label,
        primary,
        fields: [textField(decision, "Note (optional)", { multiline: false, optional: true })],
        hidden: { decision },
      });
    forms.push(`<section id="pending-approval" class="error" style="background:#fff7e6;border-color:#f5d08a;color:#5c3d00">
<strong>Waiting for a second approver:</strong> ${esc(pending.requestedBy)} asked to ${esc(what)} (${esc(moneyText(pending.amount, pending.currency))}) at ${esc(pending.requestedAt)}: ${esc(pending.reason)}
${mine ? `<p>A different approver must approve it.</p>` : ""}</section>`);
    if (can("approve") && !mine) forms.push(approval("approve", "Approve", true));
    if (can("approve")) forms.push(approval("decline", mine ? "Withdraw my request" : "Decline"));
  }
  if (b.status === "accepted" && can("reopen"))
    forms.push(actionForm(detail, ctx, "reopen", "Reopen"));
  if (offersAccept)
    forms.push(
      // The figures on this page go with the accept: if a match run changed them since, the
      // accept is refused (409) and the page shown again with the new ones.
      actionForm(detail, ctx, "accept", "Accept the difference", reason("accept"), {
        seen_amount: b.amount,
        seen_provider_amount: b.providerAmount ?? "",
        seen_ledger_amount: b.ledgerAmount ?? "",
        seen_status: b.status,
        seen_class: b.class,
        seen_currency: b.currency ?? "",
        seen_ledger_currency: detail.ledgerCurrency ?? "",
      }),
    );
  if (offersWriteOff)
    forms.push(
      breakForm(detail, ctx, {
        id: "write_off",
        path: "write-off",
        label: "Write off",
        fields: [
          {
            name: "account",
            label: "Account (required)",
            value: typed?.action === "write_off" ? (typed.account ?? "") : "",
          },
          reason("write_off"),
          { name: "date", label: "Accounting date (optional, YYYY-MM-DD)", optional: true },
        ],
      }),
    );
  if (offersMatch) {
    // Prefilled with this break's own records: the person adds the other side's ids.
    const own = (side: string) =>
      detail.records
        .filter((r) => r.side === side)
        .map((r) => r.recordRef)
        .join(", ");
    const typedMatch = typed?.action === "match" ? typed : undefined;
    forms.push(
      breakForm(detail, ctx, {
        id: "match",
        path: "match",
        label: "Match manually",
        fields: [
          {
            name: "entries",
            label: "Ledger entry ids (comma-separated)",
            value: typedMatch?.entries ?? own("ledger"),
          },
          {
            name: "records",
            label: "Provider record ids (comma-separated)",
            value: typedMatch?.records ?? own("provider"),
          },
          reason("match"),
        ],
      }),
    );
  }
  // A manual match is undone from any of its breaks, open (before the next run) or resolved by
  // it (after): the same unmatchManually as `breaks unmatch`, so an approver's, reason required.
  if (can("unmatch"))
    for (const m of manualMatches)
      forms.push(
        breakForm(detail, ctx, {
          id: `unmatch-${m.matchId}`,
          path: "unmatch",
          label: `Unmatch manual match ${m.matchId}`,
          fields: [reason("unmatch")],
          hidden: { match_id: m.matchId },
        }).replace(
          "<label>",
          `<p>Manual match ${esc(m.matchId)} (group manual:${esc(m.matchId)}, ${esc(moneyText(m.amount, m.currency))}) by ${esc(m.actor)} at ${esc(m.createdAt)}: ${esc(m.reason)}</p><label>`,
        ),
      );
  for (const [decision, label] of [
    ["confirm", "Confirm the proposed match"],
    ["reject", "Reject the proposal"],
  ] as const)
    if (isProposal && can(decision))
      forms.push(
        breakForm(detail, ctx, {
          id: decision,
          path: "decide",
          label,
          primary: decision === "confirm",
          // A confirmation needs no reason; a rejection does.
          fields: [
            decision === "confirm"
              ? textField(decision, "Reason (optional)", { optional: true })
              : reason(decision),
          ],
          hidden: { decision },
        }),
      );
  if (can("comment"))
    forms.push(actionForm(detail, ctx, "comment", "Add comment", textField("comment", "Comment")));
  if (can("assign"))
    forms.push(
      actionForm(
        detail,
        ctx,
        "assign",
        "Assign",
        textField("assign", "Assign to", { multiline: false }),
      ),
    );
  if (b.assignee && can("unassign")) forms.push(actionForm(detail, ctx, "unassign", "Unassign"));
  if (forms.length === 0)
    forms.push(
      `<p class="muted" id="read-only">You are ${ctx.role === "viewer" ? "a viewer" : `a ${esc(ctx.role)}`}: you read and export; acting on a break needs a preparer or an approver.</p>`,
    );
  const summary = `<dl id="summary">
<dt>status</dt><dd>${statusBadge(b.status).html}</dd>
<dt>class</dt><dd>${esc(b.class)} (priority P${b.priority})</dd>
<dt>amount at stake</dt><dd>${esc(moneyText(b.amount, b.currency))}</dd>
<dt>provider / ledger</dt><dd>${esc(b.providerAmount === null ? "—" : moneyText(b.providerAmount, b.currency))} / ${esc(b.ledgerAmount === null ? "—" : moneyText(b.ledgerAmount, ledgerCurrency))}</dd>
<dt>detail</dt><dd>${esc(b.detail)}</dd>
<dt>occurred</dt><dd>${esc(b.occurredAt ?? "—")}</dd>
<dt>open for</dt><dd>${b.daysOpen === null ? "—" : `${b.daysOpen} days`}</dd>
<dt>assignee</dt><dd>${esc(b.assignee ?? "—")}</dd>
${b.acceptedAt ? `<dt>accepted</dt><dd>by ${esc(b.acceptedBy ?? "")} at ${esc(b.acceptedAt)}: ${esc(b.acceptedReason ?? "")}</dd>` : ""}
${resolved ? `<dt>resolved</dt><dd id="resolution">at ${esc(resolved.at)} by match run ${esc(resolved.runId)}: ${esc(resolved.why)}</dd>` : ""}
</dl>`;
  const h = historyTable(detail.history, resolved);
  const history = htmlTable(h.header, h.rows, h.right, ' id="history"');
  const records = htmlTable(
    ["side", "kind", "ref", "amount"],
    detail.records.map((r) => [
      r.side,
      r.recordKind,
      r.recordRef,
      r.amount === null ? "" : moneyText(r.amount, r.currency),
    ]),
    new Set([3]),
  );
  return layout(
    `Break ${b.breakId}`,
    `${error ? `<p class="error" role="alert">${esc(error)}</p>` : ""}<p><a href="/breaks">← back to the queue</a>${next ? ` · <a href="/breaks/${esc(encodeURIComponent(next))}" id="next-break" rel="next">next break →</a>` : ""}</p>
${summary}
<h2>Actions</h2><div class="actions">${forms.join("")}</div>
<h2>History</h2>${h.rows.length === 0 ? `<p class="muted">No action yet.</p>` : history}
<h2>Records</h2>${records}
<div class="cols"><section><h2>Provider record${detail.providerRecord ? ` (${esc(recordKindOf(detail.providerRecord.table))})` : ""}</h2>${fieldList(detail.providerRecord?.fields)}</section>
<section><h2>Ledger entry</h2>${fieldList(detail.ledgerEntry)}</section></div>`,
    ctx,
  );
}

/**
 * The filter of a queue query (status "" is the queue: open and pending); `entity`: its ?entity=
 * in stored form ('' the merchant itself; undefined, every entity), checked by the caller.
 */
export function filterOf(q: QueueQuery, entity: string | undefined): BreakFilter {
  return {
    status:
      q.status === "all"
        ? ["open", "pending", "accepted", "resolved"]
        : q.status
          ? [q.status as "open"]
          : undefined,
    class: q.class || undefined,
    currency: q.currency ? q.currency.split(",") : undefined,
    assignee: q.assignee.toLowerCase() === UNASSIGNED_FILTER ? "" : q.assignee || undefined,
    // Read as the CLI's --search reads it: an amount as breaks list prints it is found as one.
    search: q.search ? queueSearch(q.search) : undefined,
    entity,
    overdue: q.overdue || undefined,
    sort: q.sort,
    descending: q.descending,
    limit: QUEUE_PAGE_SIZE,
    offset: (q.page - 1) * QUEUE_PAGE_SIZE,
  };
}
