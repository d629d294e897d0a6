// The web console as a Hono app on the reconciler's database. GET pages need a session (a
// sign-in with a person's own account: console-auth.ts); POSTs also need the session's form token
// and a same-origin request. Every action's actor is the signed-in account's name, and what it
// may do is its role's (workflow/roles.ts), checked here before any workflow function runs: a
// refusal is a 403 naming the role needed. An account limited to some entities
// (console_users.entities) reads and acts on their breaks and figures only: another entity's
// break is answered as one that does not exist (404), so its id does not leak. Responses carry
// a strict Content-Security-Policy.

import { getConnInfo } from "@hono/node-server/conninfo";
import { sql } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { every } from "hono/combine";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { csrf } from "hono/csrf";
import { createMiddleware } from "hono/factory";
import { HTTPException } from "hono/http-exception";
import { secureHeaders } from "hono/secure-headers";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { checkEntity, type EntityConfig } from "../config/entity-rule";
import type { SecondApprovalLimits } from "../config/second-approval";
import type { Db } from "../db/database";
import { queryRows } from "../db/query-rows";
import { primaryPosition, replayedPast, replayState } from "../db/standby-replay";
import { tableCsv } from "../export/csv-table";
import { EXPORTS, type ExportKind, loadExport } from "../export/export-table";
import { tableXlsx } from "../export/xlsx-table";
import { loadReport, type ReportFiguresCache, reportFiguresCache } from "../report/report-data";
import { errorText } from "../store/error-text";
import { acceptOrWriteOff, decideApproval, pendingApproval } from "../workflow/approvals";
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
import { userForSignIn } from "../workflow/console-users";
import { decideProposal } from "../workflow/decide-proposal";
import { activeManualMatches, matchManually, unmatchManually } from "../workflow/manual-match";
import { nextOpenBreak } from "../workflow/next-break";
import { DECOY_HASH, passwordMatches } from "../workflow/password-hash";
import { queueTotals, queueTotalsNote } from "../workflow/queue-totals";
import { type Capability, may, roleNeeded } from "../workflow/roles";
import { maskCardNumbers } from "../workflow/typed-text";
import { WorkflowError } from "../workflow/workflow-error";
import {
  createSession,
  endSession,
  isLoopbackHost,
  recordSignIn,
  SESSION_COOKIE,
  type Session,
  sessionOf,
  signInWait,
  tokenMatches,
} from "./console-auth";
import {
  breakPage,
  filterOf,
  loginPage,
  MERCHANT_ENTITY,
  messagePage,
  type PageContext,
  type QueueQuery,
  queuePage,
  reportPage,
  type TypedText,
} from "./console-pages";
import { CONSOLE_SCRIPT } from "./console-script";

interface ConsoleAppOptions {
  /** Where actions, sign-ins and sessions go: the primary (DATABASE_URL). */
  db: Db;
  /**
   * Where the read pages (report, queue, break page, exports) are read: a hot standby
   * (RECONCILER_READ_DATABASE_URL); unset, `db`.
   */
  readDb?: Db | undefined;
  /** The report page's kept figures (a new cache when unset). */
  figures?: ReportFiguresCache | undefined;
  /** Above these amounts an accept or write-off waits for a second approver (unset: never). */
  secondApproval?: SecondApprovalLimits | undefined;
  /**
   * MERCHANT_NO and RECONCILER_ENTITIES: the entities ?entity= may name, as the CLI's --entity
   * (unset: only MERCHANT_ENTITY, the merchant itself).
   */
  entityConfig?: EntityConfig | undefined;
  /** The interface the console listens on: on loopback, only loopback Host names are served. */
  host: string;
  /** Days sign-in attempts are kept past the throttle's window (90 when absent). */
  signInRetentionDays?: number | undefined;
  /**
   * Where errors and sign-ins go (never a password, a token or a cookie; card numbers masked:
   * store/error-text.ts).
   */
  log: (line: string) => void;
}

type ConsoleEnv = {
  Variables: { form: URLSearchParams; session: Session; sessionId: string };
  // What @hono/node-server passes (the socket, for the client's address); absent in app.request.
  Bindings: Record<string, unknown>;
};

const MAX_BODY = 64 * 1024;
/** How long a page waits for the standby to replay the person's own last action. */
const OWN_WRITE_WAIT_MS = 2_000;
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

/** The query parameter `name` ("" when absent), checked as urlText. */
const queryParam = (c: Context, name: string) => urlText(c.req.query(name) ?? "", name);

/** ?entity= as the queue's filter and the report page take it ("" for none). */
const entityParam = (c: Context) =>
  queryParam(c, "entity")
    .trim()
    .toUpperCase()
    .replace(MERCHANT_ENTITY.toUpperCase(), MERCHANT_ENTITY)
    .slice(0, 64);

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
  const currencyText = queryParam(c, "currency").trim();
  const currency = currencyText === "" ? [] : currencyFilter(currencyText);
  if (typeof currency === "string") throw refuse(400, `currency: ${currency}`);
  return {
    status,
    class: queryParam(c, "class").toLowerCase().slice(0, 64),
    currency: currency.join(","),
    assignee: queryParam(c, "assignee").trim().slice(0, 100),
    sort: sort as QueueSort,
    descending: c.req.query("dir") === "desc",
    page: Number(page),
    search: queryParam(c, "search").trim().slice(0, 200),
    entity: entityParam(c),
    overdue: c.req.query("overdue") === "1",
  };
}

/** A field of the POST's form ("" when absent). */
const formField = (c: Context<ConsoleEnv>, name: string) => c.get("form").get(name) ?? "";

/**
 * What the break page showed, sent back with its forms: the break's last audit row with every
 * action (seen_action), the figures with the accept (absent: not checked).
 */
function seenOf(action: BreakAction | "write_off", form: URLSearchParams): SeenBreak {
  const field = (name: string) => form.get(name) ?? undefined;
  const lastActionId = field("seen_action");
  // Every form of the break page sends it. Without it a state change could undo someone else's
  // newer one (a stale Reopen, an acceptance), and a resubmitted comment could not be told from
  // a new one: refused.
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
  forbidden: 403,
};

const ARTICLE: Record<string, string> = {
  viewer: "a viewer",
  preparer: "a preparer",
  approver: "an approver",
};

/** Refuses (403) what the session's role may not do, naming the role it needs. */
function requireRole(session: Session, capability: Capability): void {
  if (!may(session.role, capability))
    throw refuse(
      403,
      `${session.actor} is ${ARTICLE[session.role]}: ${capability.replace("_", " ")} needs ${ARTICLE[roleNeeded(capability)]}`,
    );
}

/** The client's address as the socket saw it ("unknown" when served without a socket). */
function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}

/** A typed sign-in name as the throttle and the log keep it: folded, no controls, ≤ 100. */
const signInName = (typed: string) =>
  typed
    .normalize("NFKC")
    .replace(/[\p{Cc}\p{Cf}]/gu, "")
    .replace(/\s+/gu, " ")
    .trim()
    .toLowerCase()
    .slice(0, 100);

const SESSION_COOKIE_OPTIONS = {
  httpOnly: true,
  sameSite: "Strict",
  path: "/",
} as const;

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
  const readDb = opts.readDb ?? db;
  // The report page's statement and fees per day, recomputed for the days a write changed.
  const figures = opts.figures ?? reportFiguresCache();
  // Per session, the primary's WAL position after its last action: its next pages read the
  // standby once it has replayed that far (a person sees their own accept), else the primary.
  const ownWrites = new Map<string, string>();
  const pageDb = async (c: Context<ConsoleEnv>): Promise<Db> => {
    const lsn = ownWrites.get(c.get("sessionId"));
    if (readDb === db || lsn === undefined) return readDb;
    for (const until = Date.now() + OWN_WRITE_WAIT_MS; Date.now() < until; ) {
      if (await replayedPast(readDb, lsn)) {
        ownWrites.delete(c.get("sessionId"));
        return readDb;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return db;
  };
  const wrote = async (c: Context<ConsoleEnv>) => {
    if (readDb === db) return;
    if (ownWrites.size > 10_000) ownWrites.clear();
    ownWrites.set(c.get("sessionId"), await primaryPosition(db));
  };
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
  app.post("/login", readForm, async (c) => {
    const form = c.get("form");
    const typed = form.get("name") ?? "";
    const name = maskCardNumbers(signInName(typed));
    const address = clientAddress(c);
    // Logged without the password; the name as typed (folded), known or not.
    const logSignIn = (outcome: string, extra: Record<string, unknown> = {}) =>
      opts.log(JSON.stringify({ msg: "console sign-in", name, address, outcome, ...extra }));
    if (name === "") return c.html(loginPage("Type your name and password."), 400);
    const wait = await signInWait(db, name, address);
    if (wait > 0) {
      logSignIn("throttled", { waitSeconds: wait });
      c.header("retry-after", String(wait));
      return c.html(
        loginPage(
          `Too many failed sign-ins: wait ${Math.ceil(wait / 60)} minute${wait > 60 ? "s" : ""} and try again.`,
          typed,
        ),
        429,
      );
    }
    const user = await userForSignIn(db, signInName(typed));
    // An unknown name costs the same hash as a known one (no telling names apart by time).
    const matches = await passwordMatches(
      form.get("password") ?? "",
      user?.passwordHash ?? DECOY_HASH,
    );
    const ok = user !== undefined && matches && !user.disabled;
    await recordSignIn(db, name, address, ok, opts.signInRetentionDays);
    if (!ok) {
      logSignIn(user?.disabled && matches ? "disabled" : "wrong name or password");
      return c.html(loginPage("Wrong name or password.", typed), 401);
    }
    logSignIn("ok", { role: user.role });
    const id = await createSession(db, user.name, SESSION_SECONDS);
    setCookie(c, SESSION_COOKIE, id, { ...SESSION_COOKIE_OPTIONS, maxAge: SESSION_SECONDS });
    return c.redirect("/breaks", 303);
  });
  app.all("/login", () => {
    throw refuse(405, "GET or POST only");
  });

  app.use(async (c, next) => {
    const sessionId = getCookie(c, SESSION_COOKIE);
    const session = await sessionOf(db, sessionId);
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

  // The session holds what a page shows of it: its account, role, entities and form token.
  const pageContext = (c: Context<ConsoleEnv>): PageContext => c.get("session");
  const breakIdOf = (c: Context<ConsoleEnv>) => urlText(c.req.param("id") ?? "", "the break id");
  /** The entities the session's account is limited to (undefined: every entity). */
  const limitOf = (c: Context<ConsoleEnv>) => c.get("session").entities ?? undefined;
  /** Whether the session's account sees a break of `entity`. */
  const sees = (c: Context<ConsoleEnv>, entity: string) => limitOf(c)?.includes(entity) ?? true;
  const unknownBreak = (c: Context<ConsoleEnv>, id: string) =>
    c.html(messagePage("Unknown break", `no break has the id ${id}`, pageContext(c)), 404);

  app.post("/logout", async (c) => {
    ownWrites.delete(c.get("sessionId"));
    await endSession(db, c.get("sessionId"));
    deleteCookie(c, SESSION_COOKIE, SESSION_COOKIE_OPTIONS);
    return c.redirect("/login", 303);
  });

  /**
   * Runs one action of the break page; on a WorkflowError shows the page again with the refusal
   * and what was typed kept in its form.
   */
  const onBreak = async (
    c: Context<ConsoleEnv>,
    typed: TypedText,
    work: (breakId: string, actor: string) => Promise<unknown>,
  ) => {
    const breakId = breakIdOf(c);
    const ctx = pageContext(c);
    // Another entity's break is refused before anything is done, as an unknown one.
    if (limitOf(c)) {
      const [owner] = await queryRows<{ entity: string }>(
        db,
        sql`SELECT entity FROM breaks WHERE break_id = ${breakId}`,
      );
      if (owner && !sees(c, owner.entity)) return unknownBreak(c, breakId);
    }
    try {
      // A resubmitted form (a double click, a retry) answers as the first did, written once.
      await work(breakId, ctx.actor);
      await wrote(c);
      return c.redirect(`/breaks/${encodeURIComponent(breakId)}`, 303);
    } catch (error) {
      if (!(error instanceof WorkflowError)) throw error;
      const detail = await showBreak(db, breakId);
      const status = WORKFLOW_STATUS[error.code];
      if (!detail) return c.html(messagePage("Unknown break", error.message, ctx), status);
      const pending = await pendingApproval(db, breakId);
      const manualMatches = await activeManualMatches(db, breakId);
      return c.html(
        breakPage(detail, ctx, { error: error.message, typed, pending, manualMatches }),
        status,
      );
    }
  };

  app.post("/breaks/:id/actions", async (c) => {
    const form = c.get("form");
    const action = form.get("action") ?? "";
    if (!(BREAK_ACTIONS as readonly string[]).includes(action))
      throw refuse(400, `action must be one of ${BREAK_ACTIONS.join(", ")}`);
    requireRole(c.get("session"), action as BreakAction);
    const seen = seenOf(action as BreakAction, form);
    const text = form.get("text") ?? undefined;
    return onBreak(c, { action, text: text ?? "" }, (breakId, actor) =>
      action === "accept"
        ? acceptOrWriteOff(
            db,
            { breakId, action: "accept", actor, reason: text ?? "", seen },
            opts.secondApproval,
          )
        : applyBreakAction(db, { breakId, action: action as BreakAction, actor, text, seen }),
    );
  });

  app.post("/breaks/:id/write-off", async (c) => {
    requireRole(c.get("session"), "write_off");
    const field = (name: string) => formField(c, name);
    const typed = { action: "write_off", text: field("text"), account: field("account") };
    const date = field("date").trim();
    return onBreak(c, typed, (breakId, actor) =>
      acceptOrWriteOff(
        db,
        {
          breakId,
          action: "write_off",
          actor,
          reason: typed.text,
          account: typed.account,
          date: date === "" ? undefined : date,
          seen: { lastActionId: seenOf("write_off", c.get("form")).lastActionId },
        },
        opts.secondApproval,
      ),
    );
  });

  app.post("/breaks/:id/match", async (c) => {
    requireRole(c.get("session"), "match");
    const field = (name: string) => formField(c, name);
    const typed = {
      action: "match",
      text: field("text"),
      entries: field("entries"),
      records: field("records"),
    };
    const ids = (text: string) =>
      text
        .split(",")
        .map((id) => id.trim())
        .filter((id) => id !== "");
    return onBreak(c, typed, (_breakId, actor) =>
      matchManually(
        db,
        { entries: ids(typed.entries), records: ids(typed.records), actor, reason: typed.text },
        limitOf(c),
      ),
    );
  });

  app.post("/breaks/:id/unmatch", async (c) => {
    requireRole(c.get("session"), "unmatch");
    const reason = formField(c, "text");
    const matchId = formField(c, "match_id");
    // The break the page is of goes with it: a match holding none of its records is refused,
    // and so is one holding a record of an entity the account does not see.
    return onBreak(c, { action: "unmatch", text: reason }, (breakId, actor) =>
      unmatchManually(db, { matchId, actor, reason, breakId }, limitOf(c)),
    );
  });

  app.post("/breaks/:id/decide", async (c) => {
    const decision = formField(c, "decision");
    if (decision !== "confirm" && decision !== "reject")
      throw refuse(400, "decision must be confirm or reject");
    requireRole(c.get("session"), decision);
    const reason = formField(c, "text");
    return onBreak(c, { action: decision, text: reason }, (breakId, actor) =>
      decideProposal(db, { breakId, decision, actor, reason }),
    );
  });

  app.post("/breaks/:id/approval", async (c) => {
    requireRole(c.get("session"), "approve");
    const decision = formField(c, "decision");
    if (decision !== "approve" && decision !== "decline")
      throw refuse(400, "decision must be approve or decline");
    const reason = formField(c, "text");
    return onBreak(c, { action: decision, text: reason }, (breakId, actor) =>
      decideApproval(db, { breakId, actor, decision, reason }),
    );
  });

  // Downloads of the queue's current filter: every role may export what it may read.
  app.get("/export/:file", async (c) => {
    const [kind, format, ...rest] = (c.req.param("file") ?? "").split(".");
    if (!(EXPORTS as readonly string[]).includes(kind ?? "") || rest.length > 0)
      throw refuse(404, `no such export: ${EXPORTS.join(", ")} as .csv or .xlsx`);
    if (format !== "csv" && format !== "xlsx") throw refuse(404, "an export is .csv or .xlsx");
    const { limit: _limit, offset: _offset, ...filter } = queueFilter(c);
    const table = await loadExport(await pageDb(c), kind as ExportKind, {
      ...filter,
      entities: limitOf(c),
    });
    const body =
      format === "csv" ? tableCsv(table) : new Uint8Array(await tableXlsx(table, kind as string));
    return c.body(body, 200, {
      "content-type":
        format === "csv"
          ? "text/csv; charset=utf-8"
          : "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "content-disposition": `attachment; filename="reconciler-${kind}.${format}"`,
    });
  });

  /**
   * ?entity= in stored form ('' the merchant itself; undefined when absent), taken as the CLI's
   * --entity takes it (config/entity-rule.ts) or as MERCHANT_ENTITY: any other is the client's
   * 400 naming the parameter and the rule, since it would show an empty queue or a report that
   * reads "reconciled".
   */
  const entityOf = (c: Context<ConsoleEnv>): string | undefined => {
    const typed = entityParam(c);
    if (typed === "") return undefined;
    if (typed === MERCHANT_ENTITY) return "";
    const checked = checkEntity(typed, opts.entityConfig, "entity");
    if ("refused" in checked)
      throw refuse(400, `${checked.refused}; ${MERCHANT_ENTITY} also names the merchant`);
    return checked.entity;
  };
  /** The queue's filter of the request's query, its entity checked (entityOf). */
  const queueFilter = (c: Context<ConsoleEnv>) => filterOf(queueQuery(c), entityOf(c));
  /**
   * The entities the report page shows: ?entity= (entityOf), within the account's limit; the
   * limit itself, or every entity, without it.
   */
  const reportScope = (c: Context<ConsoleEnv>): readonly string[] | undefined => {
    const entity = entityOf(c);
    if (entity === undefined) return limitOf(c);
    if (!sees(c, entity))
      throw refuse(404, `no entity ${entityParam(c)} is among those your account sees`);
    return [entity];
  };
  app.get("/", async (c) => {
    const date = queryParam(c, "date").trim() || undefined;
    // A calendar day: 2026-02-30 is the client's 400, not the database's error.
    const day = new Date(`${date}T00:00:00Z`);
    if (
      date !== undefined &&
      (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== date)
    )
      throw refuse(400, "date must be a calendar day YYYY-MM-DD");
    const reader = await pageDb(c);
    const data = await loadReport(reader, {
      date,
      queueLimit: 200,
      cache: figures,
      entities: reportScope(c),
    });
    const replay = reader === db ? undefined : await replayState(reader);
    return c.html(reportPage(data, pageContext(c), entityParam(c), replay));
  });
  app.get("/breaks", async (c) => {
    const q = queueQuery(c);
    const filter = { ...filterOf(q, entityOf(c)), entities: limitOf(c) };
    const reader = await pageDb(c);
    const page = await listBreakPage(reader, filter);
    const { limit: _limit, offset: _offset, ...whole } = filter;
    return c.html(
      queuePage(
        page,
        q,
        pageContext(c),
        await queueTotals(reader, whole),
        await queueTotalsNote(reader, whole),
      ),
    );
  });
  app.get("/breaks/:id", async (c) => {
    const id = breakIdOf(c);
    const reader = await pageDb(c);
    const detail = await showBreak(reader, id);
    if (!detail || !sees(c, detail.break.entity)) return unknownBreak(c, id);
    return c.html(
      breakPage(detail, pageContext(c), {
        pending: await pendingApproval(reader, id),
        next: await nextOpenBreak(reader, id, limitOf(c)),
        manualMatches: await activeManualMatches(reader, id),
      }),
    );
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
