// The web console: a small node:http server on the reconciler's database. GET pages need a
// session (a login with the console token); POSTs also need the session's form token and a
// same-origin request. Responses carry a strict Content-Security-Policy (own script only).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Db } from "../db/database";
import { loadReport } from "../report/report-data";
import { errorText } from "../store/error-text";
import {
  applyBreakAction,
  BREAK_ACTIONS,
  type BreakAction,
  type SeenBreak,
} from "../workflow/break-actions";
import {
  currencyFilter,
  listBreakPage,
  QUEUE_SORTS,
  type QueueSort,
  showBreak,
} from "../workflow/break-queries";
import { personName } from "../workflow/typed-text";
import { WorkflowError } from "../workflow/workflow-error";
import {
  cookieOf,
  crossSiteReason,
  isLoopbackHost,
  SESSION_COOKIE,
  type Session,
  Sessions,
  sessionCookie,
  tokenMatches,
} from "./console-auth";
import {
  breakPage,
  filterOf,
  loginPage,
  messagePage,
  type PageContext,
  type QueueQuery,
  queuePage,
  reportPage,
} from "./console-pages";
import { CONSOLE_SCRIPT } from "./console-script";

export interface ConsoleOptions {
  db: Db;
  /** The token people sign in with. */
  token: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Where errors go (never a token or a cookie; card numbers masked: store/error-text.ts). */
  log?: (line: string) => void;
}

export interface RunningConsole {
  server: Server;
  url: string;
  close(): Promise<void>;
}

const MAX_BODY = 64 * 1024;
const SESSION_SECONDS = 12 * 3600;

const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  // same-origin, not no-referrer: with no-referrer the browser sends "Origin: null" on its own form posts.
  "referrer-policy": "same-origin",
  "cache-control": "no-store",
};

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function send(
  res: ServerResponse,
  status: number,
  body: string,
  type = "text/html; charset=utf-8",
) {
  res.writeHead(status, { ...SECURITY_HEADERS, "content-type": type });
  res.end(body);
}

/**
 * A value from the URL: a control character (a NUL, which Postgres cannot even compare) is the
 * client's 400 naming where it was, not a logged 500.
 */
function urlText(value: string, field: string): string {
  if (/\p{Cc}/u.test(value)) throw new HttpError(400, `${field} must not hold control characters`);
  return value;
}

/** A break id from the path, %-decoded: a malformed escape (`%E0%A4%A`) is the client's 400. */
function pathSegment(segment: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch (error) {
    if (error instanceof URIError) throw new HttpError(400, "malformed % escape in the URL");
    throw error;
  }
  return urlText(decoded, "the break id");
}

function redirect(res: ServerResponse, location: string, cookie?: string) {
  res.writeHead(303, {
    ...SECURITY_HEADERS,
    location,
    ...(cookie ? { "set-cookie": cookie } : {}),
  });
  res.end();
}

async function formOf(req: IncomingMessage): Promise<URLSearchParams> {
  const type = req.headers["content-type"] ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded"))
    throw new HttpError(415, "forms only (application/x-www-form-urlencoded)");
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new HttpError(413, "the form is too large");
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

function queueQuery(url: URL): QueueQuery {
  const p = url.searchParams;
  const sort = p.get("sort") ?? "priority";
  // The filters take any case, as the CLI's do (a hand-edited URL).
  const status = (p.get("status") ?? "").toLowerCase();
  if (!["", "open", "pending", "accepted", "resolved", "all"].includes(status))
    throw new HttpError(400, `status must be open, pending, accepted, resolved or all`);
  if (!(QUEUE_SORTS as readonly string[]).includes(sort))
    throw new HttpError(400, `sort must be one of ${QUEUE_SORTS.join(", ")}`);
  const page = p.get("page") ?? "1";
  if (!/^[1-9]\d{0,5}$/.test(page)) throw new HttpError(400, "page must be a whole number from 1");
  const currencyText = urlText(p.get("currency") ?? "", "currency").trim();
  const currency = currencyText === "" ? [] : currencyFilter(currencyText);
  if (typeof currency === "string") throw new HttpError(400, `currency: ${currency}`);
  return {
    status,
    class: urlText(p.get("class") ?? "", "class")
      .toLowerCase()
      .slice(0, 64),
    currency: currency.join(","),
    assignee: urlText(p.get("assignee") ?? "", "assignee")
      .trim()
      .slice(0, 100),
    sort: sort as QueueSort,
    descending: p.get("dir") === "desc",
    page: Number(page),
  };
}

/**
 * What the break page showed, sent back with its forms: the break's last audit row with every
 * action (seen_action), the figures with the accept (absent: not checked).
 */
function seenOf(action: BreakAction, form: URLSearchParams): SeenBreak {
  const field = (name: string) => form.get(name) ?? undefined;
  const lastActionId = field("seen_action");
  // Every form of the break page sends it. Without it a state change could undo someone else's
  // newer one (a stale Reopen undid an acceptance), and a resubmitted comment could not be told
  // from a new one: refused.
  if (lastActionId === undefined)
    throw new HttpError(
      400,
      "the form does not say which version of the break it was sent from (seen_action): reload the page",
    );
  if (action !== "accept") return { lastActionId };
  return {
    lastActionId,
    amount: field("seen_amount"),
    providerAmount: field("seen_provider_amount"),
    ledgerAmount: field("seen_ledger_amount"),
    status: field("seen_status"),
    class: field("seen_class"),
    currency: field("seen_currency"),
    ledgerCurrency: field("seen_ledger_currency"),
  };
}

const WORKFLOW_STATUS: Record<WorkflowError["code"], number> = {
  unknown_break: 404,
  invalid: 400,
  conflict: 409,
};

/** Starts the console; resolves once it listens. */
export async function startConsole(opts: ConsoleOptions): Promise<RunningConsole> {
  const host = opts.host ?? "127.0.0.1";
  const sessions = new Sessions(SESSION_SECONDS * 1000);
  const log = opts.log ?? (() => {});
  let port = opts.port ?? 8790;

  /** On loopback only names of this machine are served (a rebound DNS name is refused). */
  const hostAllowed = (req: IncomingMessage) => {
    if (!isLoopbackHost(host)) return true;
    const name = (req.headers.host ?? "").replace(/:\d+$/, "").replace(/^\[(.*)\]$/, "$1");
    return isLoopbackHost(name);
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!hostAllowed(req))
      throw new HttpError(421, "this console answers on its loopback address only");
    const url = new URL(req.url ?? "/", "http://console.invalid");
    const path = url.pathname;
    if (req.method === "GET" && path === "/console.js")
      return send(res, 200, CONSOLE_SCRIPT, "text/javascript; charset=utf-8");
    if (path === "/login") return login(req, res);
    const sessionId = cookieOf(req, SESSION_COOKIE);
    const session = sessions.get(sessionId);
    if (!session) {
      if (req.method === "GET") return redirect(res, "/login");
      throw new HttpError(401, "sign in first");
    }
    const ctx: PageContext = { actor: session.actor, formToken: session.formToken };
    if (req.method === "POST") {
      const form = await checkedForm(req, session);
      if (path === "/logout") {
        sessions.delete(sessionId);
        return redirect(res, "/login", sessionCookie("", 0));
      }
      const m = /^\/breaks\/([^/]+)\/actions$/.exec(path);
      if (m) return act(res, pathSegment(m[1] as string), form, ctx);
      throw new HttpError(404, "no such action");
    }
    if (req.method !== "GET") throw new HttpError(405, "GET or POST only");
    if (path === "/")
      return send(res, 200, reportPage(await loadReport(opts.db, { queueLimit: 200 }), ctx));
    if (path === "/breaks") {
      const q = queueQuery(url);
      return send(res, 200, queuePage(await listBreakPage(opts.db, filterOf(q)), q, ctx));
    }
    const one = /^\/breaks\/([^/]+)$/.exec(path);
    if (one) {
      const id = pathSegment(one[1] as string);
      const detail = await showBreak(opts.db, id);
      if (!detail)
        return send(res, 404, messagePage("Unknown break", `no break has the id ${id}`, ctx));
      return send(res, 200, breakPage(detail, ctx));
    }
    throw new HttpError(404, "no such page");
  }

  async function login(req: IncomingMessage, res: ServerResponse) {
    if (req.method === "GET") return send(res, 200, loginPage());
    if (req.method !== "POST") throw new HttpError(405, "GET or POST only");
    const crossSite = crossSiteReason(req);
    if (crossSite) throw new HttpError(403, `cross-site request refused: ${crossSite}`);
    const form = await formOf(req);
    if (!tokenMatches(form.get("token") ?? "", opts.token))
      return send(res, 401, loginPage("Wrong token: ask whoever runs the console for it."));
    let actor: string;
    try {
      // The rule of every action's actor (typed-text.ts), so the session's name is one it takes.
      actor = personName(
        form.get("actor") ?? "",
        "name",
        "yours, 1–100 characters (it goes into the audit trail)",
      );
    } catch (error) {
      if (!(error instanceof WorkflowError)) throw error;
      return send(res, 400, loginPage(`Your ${error.message}`));
    }
    const { id } = sessions.create(actor);
    return redirect(res, "/breaks", sessionCookie(id, SESSION_SECONDS));
  }

  async function checkedForm(req: IncomingMessage, session: Session) {
    const crossSite = crossSiteReason(req);
    if (crossSite) throw new HttpError(403, `cross-site request refused: ${crossSite}`);
    const form = await formOf(req);
    if (!tokenMatches(form.get("form_token") ?? "", session.formToken))
      throw new HttpError(403, "the form's token is missing or stale: reload the page");
    return form;
  }

  async function act(
    res: ServerResponse,
    breakId: string,
    form: URLSearchParams,
    ctx: PageContext,
  ) {
    const action = form.get("action") ?? "";
    if (!(BREAK_ACTIONS as readonly string[]).includes(action))
      throw new HttpError(400, `action must be one of ${BREAK_ACTIONS.join(", ")}`);
    const seen = seenOf(action as BreakAction, form);
    try {
      // A resubmitted form (a double click, a retry) answers as the first did, written once.
      await applyBreakAction(opts.db, {
        breakId,
        action: action as BreakAction,
        actor: ctx.actor,
        text: form.get("text") ?? undefined,
        seen,
      });
      return redirect(res, `/breaks/${encodeURIComponent(breakId)}`);
    } catch (error) {
      if (!(error instanceof WorkflowError)) throw error;
      const detail = await showBreak(opts.db, breakId);
      const status = WORKFLOW_STATUS[error.code];
      if (!detail) return send(res, status, messagePage("Unknown break", error.message, ctx));
      return send(res, status, breakPage(detail, ctx, error.message));
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof HttpError)
        return send(res, error.status, messagePage("Refused", error.message));
      // The sync's stored-error rule: a failed query's values left out, card numbers and
      // secrets masked (a comment's text reached the log through drizzle's "params:").
      log(JSON.stringify({ msg: "console error", error: errorText(error) }));
      if (!res.headersSent)
        send(res, 500, messagePage("Error", "the console failed on this request (see its log)"));
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const shown = host.includes(":") ? `[${host}]` : host;
  return {
    server,
    url: `http://${shown}:${port}`,
    close: () => closeGracefully(server),
  };
}

/** How long a stopping console gives the requests in hand before it cuts their connections. */
const CLOSE_GRACE_MS = 15_000;

/**
 * Stops taking requests and lets those in hand finish: an accept waiting on a match run's lock
 * commits after the signal, and its answer must reach the browser (cut at once, the user saw
 * an empty reply for an action that was saved, and a retried comment was written twice). Idle
 * keep-alive connections are closed as they go idle; past CLOSE_GRACE_MS every one is cut.
 */
function closeGracefully(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
    server.close(() => {
      clearInterval(idle);
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}
