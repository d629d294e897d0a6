// The web console as a Hono app on the reconciler's database. GET pages need a session (a login
// with the console token); POSTs also need the session's form token and a same-origin request.
// Responses carry a strict Content-Security-Policy (own script only).
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { every } from "hono/combine";
import { getCookie } from "hono/cookie";
import { csrf } from "hono/csrf";
import { createMiddleware } from "hono/factory";
import { HTTPException } from "hono/http-exception";
import { secureHeaders } from "hono/secure-headers";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Db } from "../db/database";
import { loadReport, reportFiguresCache } from "../report/report-data";
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

export interface ConsoleAppOptions {
  db: Db;
  /** The token people sign in with. */
  token: string;
  /** The interface the console listens on: on loopback, only loopback Host names are served. */
  host: string;
  /** Where errors go (never a token or a cookie; card numbers masked: store/error-text.ts). */
  log: (line: string) => void;
}

type ConsoleEnv = {
  Variables: { form: URLSearchParams; session: Session; sessionId: string };
};

const MAX_BODY = 64 * 1024;
const SESSION_SECONDS = 12 * 3600;

const refuse = (status: ContentfulStatusCode, message: string) =>
  new HTTPException(status, { message });

const refused = (c: Context, status: ContentfulStatusCode, message: string) =>
  c.html(messagePage("Refused", message), status);

/**
 * A value from the URL: a control character (a NUL, which Postgres cannot even compare) is the
 * client's 400 naming where it was, not a logged 500.
 */
function urlText(value: string, field: string): string {
  if (/\p{Cc}/u.test(value)) throw refuse(400, `${field} must not hold control characters`);
  return value;
}

function queueQuery(c: Context): QueueQuery {
  const sort = c.req.query("sort") ?? "priority";
  // The filters take any case, as the CLI's do (a hand-edited URL).
  const status = (c.req.query("status") ?? "").toLowerCase();
  if (!["", "open", "pending", "accepted", "resolved", "all"].includes(status))
    throw refuse(400, `status must be open, pending, accepted, resolved or all`);
  if (!(QUEUE_SORTS as readonly string[]).includes(sort))
    throw refuse(400, `sort must be one of ${QUEUE_SORTS.join(", ")}`);
  const page = c.req.query("page") ?? "1";
  if (!/^[1-9]\d{0,5}$/.test(page)) throw refuse(400, "page must be a whole number from 1");
  const currencyText = urlText(c.req.query("currency") ?? "", "currency").trim();
  const currency = currencyText === "" ? [] : currencyFilter(currencyText);
  if (typeof currency === "string") throw refuse(400, `currency: ${currency}`);
  return {
    status,
    class: urlText(c.req.query("class") ?? "", "class")
      .toLowerCase()
      .slice(0, 64),
    currency: currency.join(","),
    assignee: urlText(c.req.query("assignee") ?? "", "assignee")
      .trim()
      .slice(0, 100),
    sort: sort as QueueSort,
    descending: c.req.query("dir") === "desc",
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
    throw refuse(
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

const WORKFLOW_STATUS: Record<WorkflowError["code"], ContentfulStatusCode> = {
  unknown_break: 404,
  invalid: 400,
  conflict: 409,
};

/** The same-origin check of Origin and Sec-Fetch-Site (either, when the browser sends them). */
const sameOrigin = csrf({
  origin: (origin, c) => {
    const host = c.req.header("host");
    return host !== undefined && (origin === `http://${host}` || origin === `https://${host}`);
  },
});

/**
 * The same-origin check where the browser sends Origin or Sec-Fetch-Site (it does with every
 * form post): a request with neither is a tool (curl, a script), which another site cannot
 * drive through a signed-in browser; the session's form token still guards it.
 */
const browserSameOrigin = createMiddleware<ConsoleEnv>(async (c, next) =>
  (c.req.header("origin") ?? c.req.header("sec-fetch-site")) === undefined
    ? next()
    : sameOrigin(c, next),
);

/** A POST's form: same-origin, urlencoded, at most MAX_BODY bytes. */
const readForm = every(
  browserSameOrigin,
  createMiddleware<ConsoleEnv>(async (c, next) => {
    if (!(c.req.header("content-type") ?? "").startsWith("application/x-www-form-urlencoded"))
      throw refuse(415, "forms only (application/x-www-form-urlencoded)");
    await next();
  }),
  bodyLimit({
    maxSize: MAX_BODY,
    onError: () => {
      throw refuse(413, "the form is too large");
    },
  }),
  createMiddleware<ConsoleEnv>(async (c, next) => {
    c.set("form", new URLSearchParams(await c.req.text()));
    await next();
  }),
);

export function createConsoleApp(opts: ConsoleAppOptions): Hono<ConsoleEnv> {
  const { db } = opts;
  const sessions = new Sessions(SESSION_SECONDS * 1000);
  // The report page's statement and fees, kept until a finance table is written.
  const figures = reportFiguresCache();
  const app = new Hono<ConsoleEnv>();

  app.use(
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'none'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'unsafe-inline'"],
        imgSrc: ["'self'", "data:"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
      },
      xFrameOptions: "DENY",
      // same-origin, not no-referrer: with no-referrer the browser sends "Origin: null" on its own form posts.
      referrerPolicy: "same-origin",
      // TLS, where there is any, is a proxy's: whether its domain pins HTTPS is not the console's call.
      strictTransportSecurity: false,
    }),
  );
  app.use(async (c, next) => {
    await next();
    c.header("cache-control", "no-store");
  });
  // On loopback only names of this machine are served (a rebound DNS name is refused).
  app.use(async (c, next) => {
    if (isLoopbackHost(opts.host)) {
      const name = (c.req.header("host") ?? "").replace(/:\d+$/, "").replace(/^\[(.*)\]$/, "$1");
      if (!isLoopbackHost(name))
        throw refuse(421, "this console answers on its loopback address only");
    }
    await next();
  });

  app.get("/console.js", (c) =>
    c.body(CONSOLE_SCRIPT, 200, { "content-type": "text/javascript; charset=utf-8" }),
  );
  app.get("/login", (c) => c.html(loginPage()));
  app.post("/login", readForm, (c) => {
    const form = c.get("form");
    if (!tokenMatches(form.get("token") ?? "", opts.token))
      return c.html(loginPage("Wrong token: ask whoever runs the console for it."), 401);
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
      return c.html(loginPage(`Your ${error.message}`), 400);
    }
    const { id } = sessions.create(actor);
    c.header("set-cookie", sessionCookie(id, SESSION_SECONDS));
    return c.redirect("/breaks", 303);
  });
  app.all("/login", () => {
    throw refuse(405, "GET or POST only");
  });

  app.use(async (c, next) => {
    const sessionId = getCookie(c, SESSION_COOKIE);
    const session = sessions.get(sessionId);
    if (!session) {
      if (c.req.method === "GET") return c.redirect("/login", 303);
      throw refuse(401, "sign in first");
    }
    c.set("session", session);
    c.set("sessionId", sessionId as string);
    // A malformed % escape (`%E0%A4%A`) is the client's 400, not a path that matches nothing.
    try {
      decodeURIComponent(new URL(c.req.url).pathname);
    } catch (error) {
      if (error instanceof URIError) throw refuse(400, "malformed % escape in the URL");
      throw error;
    }
    await next();
  });
  app.post("*", readForm, async (c, next) => {
    if (!tokenMatches(c.get("form").get("form_token") ?? "", c.get("session").formToken))
      throw refuse(403, "the form's token is missing or stale: reload the page");
    await next();
  });

  const pageContext = (c: Context<ConsoleEnv>): PageContext => ({
    actor: c.get("session").actor,
    formToken: c.get("session").formToken,
  });
  const breakIdOf = (c: Context<ConsoleEnv>) => urlText(c.req.param("id") ?? "", "the break id");

  app.post("/logout", (c) => {
    sessions.delete(c.get("sessionId"));
    c.header("set-cookie", sessionCookie("", 0));
    return c.redirect("/login", 303);
  });

  app.post("/breaks/:id/actions", async (c) => {
    const breakId = breakIdOf(c);
    const form = c.get("form");
    const ctx = pageContext(c);
    const action = form.get("action") ?? "";
    if (!(BREAK_ACTIONS as readonly string[]).includes(action))
      throw refuse(400, `action must be one of ${BREAK_ACTIONS.join(", ")}`);
    const seen = seenOf(action as BreakAction, form);
    try {
      // A resubmitted form (a double click, a retry) answers as the first did, written once.
      await applyBreakAction(db, {
        breakId,
        action: action as BreakAction,
        actor: ctx.actor,
        text: form.get("text") ?? undefined,
        seen,
      });
      return c.redirect(`/breaks/${encodeURIComponent(breakId)}`, 303);
    } catch (error) {
      if (!(error instanceof WorkflowError)) throw error;
      const detail = await showBreak(db, breakId);
      const status = WORKFLOW_STATUS[error.code];
      if (!detail) return c.html(messagePage("Unknown break", error.message, ctx), status);
      const typed = { action, text: form.get("text") ?? "" };
      return c.html(breakPage(detail, ctx, error.message, typed), status);
    }
  });

  app.get("/", async (c) =>
    c.html(reportPage(await loadReport(db, { queueLimit: 200, cache: figures }), pageContext(c))),
  );
  app.get("/breaks", async (c) => {
    const q = queueQuery(c);
    return c.html(queuePage(await listBreakPage(db, filterOf(q)), q, pageContext(c)));
  });
  app.get("/breaks/:id", async (c) => {
    const id = breakIdOf(c);
    const detail = await showBreak(db, id);
    const ctx = pageContext(c);
    if (!detail) return c.html(messagePage("Unknown break", `no break has the id ${id}`, ctx), 404);
    return c.html(breakPage(detail, ctx));
  });

  app.notFound((c) => {
    if (c.req.method === "POST") return refused(c, 404, "no such action");
    if (c.req.method !== "GET") return refused(c, 405, "GET or POST only");
    return refused(c, 404, "no such page");
  });
  app.onError((error, c) => {
    // hono/csrf's refusal is the one without a message.
    if (error instanceof HTTPException)
      return refused(
        c,
        error.status as ContentfulStatusCode,
        error.message || "cross-site request refused: it did not come from this console's pages",
      );
    // The sync's stored-error rule: a failed query's values left out, card numbers and
    // secrets masked (a comment's text reached the log through drizzle's "params:").
    opts.log(JSON.stringify({ msg: "console error", error: errorText(error) }));
    return c.html(messagePage("Error", "the console failed on this request (see its log)"), 500);
  });
  return app;
}
