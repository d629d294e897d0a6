// The console over HTTP: nothing without a session, each person signing in with their own
// account (a wrong password, an unknown or disabled name refused alike; failures throttled and
// logged without the password), POSTs refused without the session's form token or from another
// origin (and nothing written then), text from the database escaped, and a loopback console
// refusing foreign Host names.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryText } from "../db/query-rows";
import {
  type ConsoleFixture,
  type ConsoleUserName,
  consoleFixture,
  HOSTILE,
  postSignIn,
} from "../testing/console";
import { testBackends } from "../testing/databases";
import { applyBreakAction } from "../workflow/break-actions";
import { breakHistory, showBreak } from "../workflow/break-queries";
import { disableUser } from "../workflow/console-users";
import { startConsole } from "./console-server";

let f: ConsoleFixture;
let base: string;

/** A signed-in session on the console at `at` (the fixture's unless given). */
async function session(
  at = base,
  name: ConsoleUserName = "alice",
): Promise<{ cookie: string; formToken: string }> {
  const res = await f.signIn(name, at);
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0] as string;
  const page = await (await fetch(`${at}/breaks/${f.ids[0]}`, { headers: { cookie } })).text();
  const formToken = /name="form_token" value="([^"]+)"/.exec(page)?.[1] as string;
  return { cookie, formToken };
}

const post = (path: string, cookie: string, form: Record<string, string>, headers = {}) =>
  fetch(`${base}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie, ...headers },
    body: new URLSearchParams(form),
  });

/** The hidden fields of one of a break page's forms (`accept`, `reopen`, `comment`, ...), as shown now. */
async function formOf(id: string, action: string, cookie: string): Promise<Record<string, string>> {
  const page = await (await fetch(`${base}/breaks/${id}`, { headers: { cookie } })).text();
  const form = new RegExp(`<form[^>]*id="${action}-form">([\\s\\S]*?)</form>`).exec(page)?.[1];
  if (form === undefined) throw new Error(`the page of ${id} has no ${action} form`);
  return Object.fromEntries(
    [...form.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"/g)].map((m) => [
      m[1] as string,
      (m[2] as string).replaceAll("&amp;", "&"),
    ]),
  );
}

const act = (id: string, cookie: string, form: Record<string, string>) =>
  post(`/breaks/${id}/actions`, cookie, form);

/** The message of a refused action's page. */
const alertOf = async (res: Response) =>
  (/<p class="error" role="alert">([^<]*)<\/p>/.exec(await res.text())?.[1] ?? "")
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'");

describe.each(testBackends())("the console over HTTP on %s", (kind) => {
  beforeAll(async () => {
    f = await consoleFixture(kind);
    base = f.console.url;
  }, 120_000);
  afterAll(async () => {
    await f?.close();
  });

  it("sends to the login without a session; a wrong password and an unknown name are refused alike", async () => {
    const res = await fetch(`${base}/breaks`, { redirect: "manual" });
    expect([res.status, res.headers.get("location")]).toEqual([303, "/login"]);
    for (const [name, password] of [
      ["alice", "not-her-password"],
      ["nobody", f.passwords.alice],
      ["bob", f.passwords.alice],
    ] as const) {
      const wrong = await postSignIn(base, name, password);
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get("set-cookie")).toBeNull();
      expect(await alertOf(wrong)).toBe("Wrong name or password.");
    }
  });

  it("sets an HttpOnly SameSite=Strict session cookie and serves the pages with a strict CSP", async () => {
    const res = await f.signIn("alice");
    expect(res.status).toBe(303);
    expect(res.headers.get("set-cookie")).toMatch(
      /; Max-Age=43200; Path=\/; HttpOnly; SameSite=Strict$/,
    );
    // The name in any case is the account's; the audit actor is the account's own spelling.
    expect((await postSignIn(base, "ALICE", f.passwords.alice)).status).toBe(303);
    const { cookie } = await session();
    const queue = await fetch(`${base}/breaks`, { headers: { cookie } });
    expect(queue.headers.get("content-security-policy")).toContain("script-src 'self'");
    const html = await queue.text();
    expect(html).toContain('<td class="n">1,250.50 EUR</td>');
    const report = await (await fetch(`${base}/`, { headers: { cookie } })).text();
    expect(report).toContain("Provider vs ledger per currency");
  });

  it("escapes text from the database", async () => {
    const { cookie } = await session();
    const page = await (await fetch(`${base}/breaks/${f.ids[1]}`, { headers: { cookie } })).text();
    expect(page).not.toContain(HOSTILE);
    expect(page).toContain("&lt;img src=x onerror=&quot;document.title=&#39;pwned&#39;&quot;&gt;");
  });

  it("refuses POSTs without the form token, from another origin or another site; writes nothing", async () => {
    const { cookie, formToken } = await session();
    const id = f.ids[2] as string;
    const form: Record<string, string> = { ...(await formOf(id, "accept", cookie)), text: "ok" };
    expect(form.form_token).toBe(formToken);
    const refused = [
      await post(
        `/breaks/${id}/actions`,
        cookie,
        Object.fromEntries(Object.entries(form).filter(([name]) => name !== "form_token")),
      ),
      await post(`/breaks/${id}/actions`, cookie, form, { origin: "https://evil.example" }),
      await post(`/breaks/${id}/actions`, cookie, form, { "sec-fetch-site": "cross-site" }),
      await post(`/breaks/${id}/actions`, "", form),
    ];
    expect(refused.map((r) => r.status)).toEqual([403, 403, 403, 401]);
    expect(await breakHistory(f.database.db, id)).toEqual([]);
    const ok = await post(`/breaks/${id}/actions`, cookie, form, { origin: base });
    expect([ok.status, ok.headers.get("location")]).toEqual([303, `/breaks/${id}`]);
    expect((await breakHistory(f.database.db, id)).map((h) => [h.action, h.actor])).toEqual([
      ["accept", "alice"],
    ]);
    // The same form sent again (a double click, a retry) is answered as the first, written once.
    const twice = await post(`/breaks/${id}/actions`, cookie, form);
    expect([twice.status, twice.headers.get("location")]).toEqual([303, `/breaks/${id}`]);
    expect(await breakHistory(f.database.db, id)).toHaveLength(1);
    // Someone else's accept from the page before is told who accepted it.
    const bob = await session(base, "bob");
    const late = await post(`/breaks/${id}/actions`, bob.cookie, {
      ...form,
      form_token: bob.formToken,
    });
    expect(late.status).toBe(409);
    expect(await alertOf(late)).toContain("changed since you looked (alice accepted it at ");
  });

  it("refuses an accept of figures the page showed but a run changed since (409, the new page)", async () => {
    const { cookie, formToken } = await session();
    const id = f.ids[0] as string;
    const page = await (await fetch(`${base}/breaks/${id}`, { headers: { cookie } })).text();
    const form = /<form[^>]*id="accept-form">([\s\S]*?)<\/form>/.exec(page)?.[1] ?? "";
    const seen = Object.fromEntries(
      [...form.matchAll(/name="(seen_\w+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    expect(seen).toEqual({
      seen_action: "0",
      seen_amount: "1250.50",
      seen_provider_amount: "",
      seen_ledger_amount: "-1250.50",
      seen_status: "open",
      seen_class: "missing_at_provider",
      seen_currency: "EUR",
      seen_ledger_currency: "EUR",
    });
    const db = f.database.db;
    // What a match run writes when the entry is rebooked with the opposite sign.
    await queryText(db, `UPDATE breaks SET ledger_amount = 1250.50 WHERE break_id = '${id}'`);
    try {
      const res = await post(`/breaks/${id}/actions`, cookie, {
        ...seen,
        action: "accept",
        text: "ok",
        form_token: formToken,
      });
      expect(res.status).toBe(409);
      expect(await res.text()).toContain(
        "changed since it was shown (ledger amount -1250.50 is now 1250.50)",
      );
      expect(await breakHistory(db, id)).toEqual([]);
    } finally {
      await queryText(db, `UPDATE breaks SET ledger_amount = -1250.50 WHERE break_id = '${id}'`);
    }
  });

  it("refuses a Reopen from a page older than someone else's newer acceptance (409, naming who)", async () => {
    const alice = await session();
    const bob = await session(base, "bob");
    const id = f.ids[1] as string; // assigned to carol, open
    const db = f.database.db;
    await applyBreakAction(db, { breakId: id, action: "accept", actor: "carol", text: "first" });
    const stale = await formOf(id, "reopen", alice.cookie); // alice's page offers Reopen
    // bob reopens and accepts it again, from his own pages.
    expect((await act(id, bob.cookie, await formOf(id, "reopen", bob.cookie))).status).toBe(303);
    const accept = { ...(await formOf(id, "accept", bob.cookie)), text: "bob: write-off approved" };
    expect((await act(id, bob.cookie, accept)).status).toBe(303);
    const before = (await breakHistory(db, id)).length;
    const res = await act(id, alice.cookie, stale);
    expect(res.status).toBe(409);
    expect(await alertOf(res)).toMatch(
      /changed since you looked \(bob reopened it at [^;]+; bob accepted it at [^)]+\): nothing done/,
    );
    expect((await breakHistory(db, id)).length).toBe(before);
    expect((await showBreak(db, id))?.break).toMatchObject({
      status: "accepted",
      acceptedBy: "bob",
    });
    // A form of a state-changing action that says nothing of the page it came from is refused.
    const bare = await act(id, alice.cookie, {
      action: "reopen",
      form_token: stale.form_token as string,
    });
    expect(bare.status).toBe(400);
    expect((await breakHistory(db, id)).length).toBe(before);
    await applyBreakAction(db, { breakId: id, action: "reopen", actor: "carol" });
  });

  it("of two assigns from the same page one wins, the other is told who; a double-submitted comment is written once", async () => {
    const alice = await session();
    const bob = await session(base, "bob");
    const id = f.ids[1] as string;
    const db = f.database.db;
    const [a, b] = [
      await formOf(id, "assign", alice.cookie),
      await formOf(id, "assign", bob.cookie),
    ];
    const [ra, rb] = await Promise.all([
      act(id, alice.cookie, { ...a, text: "alice" }),
      act(id, bob.cookie, { ...b, text: "bob" }),
    ]);
    const statuses = [ra.status, rb.status].sort();
    expect(statuses).toEqual([303, 409]);
    const winner = (await showBreak(db, id))?.break.assignee as string;
    const lost = ra.status === 409 ? ra : rb;
    expect(await alertOf(lost)).toContain(
      `changed since you looked (${winner} assigned it to ${winner} at `,
    );
    const comment: Record<string, string> = {
      ...(await formOf(id, "comment", alice.cookie)),
      text: "called the bank, refund on its way",
    };
    const before = (await breakHistory(db, id)).length;
    const answers = [await act(id, alice.cookie, comment), await act(id, alice.cookie, comment)];
    expect(answers.map((r) => [r.status, r.headers.get("location")])).toEqual([
      [303, `/breaks/${id}`],
      [303, `/breaks/${id}`],
    ]);
    const after = await breakHistory(db, id);
    expect(after.slice(before).map((h) => [h.actor, h.action, h.text])).toEqual([
      ["alice", "comment", "called the bank, refund on its way"],
    ]);
    // A comment form that does not say which page it came from cannot be told from a new one.
    const bare = await act(id, alice.cookie, {
      action: "comment",
      text: "called the bank, refund on its way",
      form_token: comment.form_token as string,
    });
    expect(bare.status).toBe(400);
    expect((await breakHistory(db, id)).length).toBe(after.length);
  });

  it("sends the class and currencies with the accept: a rebooking to another currency makes it 409", async () => {
    const { cookie } = await session();
    const id = f.ids[0] as string; // EUR
    const seen = await formOf(id, "accept", cookie);
    const db = f.database.db;
    // What a match run writes when the ledger entry is rebooked to 1,250.50 USD.
    const rebook = (currency: string) =>
      Promise.all([
        queryText(db, `UPDATE breaks SET currency = '${currency}' WHERE break_id = '${id}'`),
        queryText(db, `UPDATE break_records SET currency = '${currency}' WHERE break_id = '${id}'`),
      ]);
    await rebook("USD");
    try {
      const before = (await breakHistory(db, id)).length;
      const res = await act(id, cookie, { ...seen, text: "small EUR rounding" });
      expect(res.status).toBe(409);
      expect(await alertOf(res)).toContain(
        "changed since it was shown (currency EUR is now USD; ledger currency EUR is now USD)",
      );
      expect((await breakHistory(db, id)).length).toBe(before);
    } finally {
      await rebook("EUR");
    }
  });

  it("shows each side of a break in its own currency", async () => {
    const { cookie } = await session();
    const id = f.ids[0] as string; // ledger -1250.50 EUR
    const db = f.database.db;
    // A currency_mismatch: the provider's side in SGD, the ledger's in EUR.
    await queryText(
      db,
      `UPDATE breaks SET class = 'currency_mismatch', currency = 'SGD', provider_amount = -1600.00 WHERE break_id = '${id}'`,
    );
    try {
      const page = await (await fetch(`${base}/breaks/${id}`, { headers: { cookie } })).text();
      expect(/<dt>provider \/ ledger<\/dt><dd>([^<]*)/.exec(page)?.[1]).toBe(
        "-1,600.00 SGD / -1,250.50 EUR",
      );
    } finally {
      await queryText(
        db,
        `UPDATE breaks SET class = 'missing_at_provider', currency = 'EUR', provider_amount = NULL WHERE break_id = '${id}'`,
      );
    }
  });

  it("answers a comment with a NUL 400 naming the field; the error log masks card numbers", async () => {
    const logged: string[] = [];
    // A database that fails every action the way drizzle reports it: the query and its values.
    const failing = new Proxy(f.database.db, {
      get(target, key, receiver) {
        if (key === "transaction")
          return () =>
            Promise.reject(
              new Error(
                "Failed query: INSERT INTO break_actions (text) VALUES ($1)\nparams: refund to card 5555555555554444",
                { cause: new Error("invalid byte sequence for card 4111111111111111") },
              ),
            );
        return Reflect.get(target, key, receiver);
      },
    });
    const own = await startConsole({
      db: failing,
      port: 0,
      // Its errors (sign-ins are logged too).
      log: (line) => {
        if (!line.includes('"console sign-in"')) logged.push(line);
      },
    });
    try {
      const { cookie, formToken } = await session(own.url);
      const id = f.ids[2] as string;
      const send = (text: string) =>
        fetch(`${own.url}/breaks/${id}/actions`, {
          method: "POST",
          redirect: "manual",
          headers: { "content-type": "application/x-www-form-urlencoded", cookie },
          body: new URLSearchParams({
            action: "comment",
            text,
            form_token: formToken,
            seen_action: "0",
          }),
        });
      const nul = await send("refund to card 5555555555554444\u0000");
      expect(nul.status).toBe(400);
      expect(await alertOf(nul)).toMatch(/^comment must not hold control characters \(U\+0000/);
      expect(logged).toEqual([]);
      const failed = await send("refund to card 5555555555554444");
      expect(failed.status).toBe(500);
      expect(logged).toHaveLength(1);
      expect(logged.join("\n")).not.toMatch(/5555555555554444|4111111111111111/);
      expect(logged[0]).toContain("invalid byte sequence for card [REDACTED]");
    } finally {
      await own.close();
    }
  });

  it("throttles a name after 5 failed sign-ins (429, even with the right password), logs each without the password, and a disabled account cannot sign in", async () => {
    const logged: string[] = [];
    const own = await startConsole({ db: f.database.db, port: 0, log: (l) => logged.push(l) });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push((await postSignIn(own.url, "vic", `guess-${i}`)).status);
      const right = await postSignIn(own.url, "vic", f.passwords.vic);
      expect([...statuses, right.status]).toEqual([401, 401, 401, 401, 401, 429]);
      expect(Number(right.headers.get("retry-after"))).toBeGreaterThan(800);
      expect(await alertOf(right)).toMatch(/^Too many failed sign-ins: wait 15 minutes/);
      // Another name from the same address is not held back by vic's failures.
      expect((await f.signIn("paula", own.url)).status).toBe(303);
      const events = logged.map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(events.map((e) => [e.msg, e.name, e.outcome])).toEqual([
        ...Array(5).fill(["console sign-in", "vic", "wrong name or password"]),
        ["console sign-in", "vic", "throttled"],
        ["console sign-in", "paula", "ok"],
      ]);
      expect(events[0]?.address).toMatch(/127\.0\.0\.1/);
      expect(logged.join("\n")).not.toContain("guess-");
      expect(events.filter((e) => "password" in e)).toEqual([]);
      for (const password of Object.values(f.passwords))
        expect(logged.join("\n")).not.toContain(password);
      // Disabled from the CLI: the session in hand ends, a new sign-in is refused.
      const paula = await session(own.url, "paula");
      await disableUser(f.database.db, "Paula");
      const after = await fetch(`${own.url}/breaks`, {
        headers: { cookie: paula.cookie },
        redirect: "manual",
      });
      expect([after.status, after.headers.get("location")]).toEqual([303, "/login"]);
      expect((await f.signIn("paula", own.url)).status).toBe(401);
      expect((JSON.parse(logged.at(-1) as string) as { outcome: string }).outcome).toBe("disabled");
    } finally {
      await own.close();
    }
  });

  it("deletes sign-in attempts older than the throttle's window plus the retention at each sign-in", async () => {
    const own = await startConsole({ db: f.database.db, port: 0, signInRetentionDays: 30 });
    try {
      await queryText(
        f.database.db,
        `INSERT INTO console_sign_ins (at, name, address, ok) VALUES
           (now() - interval '30 days' - interval '16 minutes', 'old-fail', '10.0.0.1', false),
           (now() - interval '400 days', 'old-ok', '10.0.0.1', true),
           (now() - interval '30 days' - interval '14 minutes', 'kept', '10.0.0.1', false),
           (now() - interval '2 days', 'recent', '10.0.0.1', true)`,
      );
      const names = async () =>
        (
          await queryText<{ name: string }>(
            f.database.db,
            "SELECT name FROM console_sign_ins WHERE address = '10.0.0.1' ORDER BY at",
          )
        ).map((r) => r.name);
      expect(await names()).toEqual(["old-ok", "old-fail", "kept", "recent"]);
      // A failed attempt prunes as a successful one does.
      expect((await postSignIn(own.url, "nobody", "wrong")).status).toBe(401);
      expect(await names()).toEqual(["kept", "recent"]);
    } finally {
      await own.close();
    }
    // The default keeps 90 days past the window: the 30-day-old attempt stays.
    expect((await f.signIn("alice")).status).toBe(303);
    expect(
      await queryText(f.database.db, "SELECT name FROM console_sign_ins WHERE name = 'kept'"),
    ).toEqual([{ name: "kept" }]);
  });

  it("answers only to loopback Host names (DNS rebinding)", async () => {
    const { port } = new URL(base);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: "127.0.0.1", port, path: "/login", headers: { host: `rebound.example:${port}` } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(421);
  });

  it("answers a malformed % escape, a control character in a filter or a break id, or a seen_action past bigint 400, without an error in its log", async () => {
    const logged: string[] = [];
    const own = await startConsole({
      db: f.database.db,
      port: 0,
      // Its errors (sign-ins are logged too).
      log: (line) => {
        if (!line.includes('"console sign-in"')) logged.push(line);
      },
    });
    try {
      const { cookie, formToken } = await session(own.url);
      const postComment = (path: string, extra: Record<string, string> = {}) =>
        fetch(`${own.url}${path}`, {
          method: "POST",
          redirect: "manual",
          headers: { "content-type": "application/x-www-form-urlencoded", cookie },
          body: new URLSearchParams({
            action: "comment",
            text: "x",
            form_token: formToken,
            ...extra,
          }),
        });
      const get = await fetch(`${own.url}/breaks/%E0%A4%A`, { headers: { cookie } });
      const posted = await postComment("/breaks/%E0%A4%A/actions");
      expect([get.status, posted.status]).toEqual([400, 400]);
      expect(await get.text()).toContain("malformed % escape");
      const id = f.ids[0] as string;
      const statuses = [];
      for (const path of ["/breaks?assignee=bob%00", "/breaks?class=x%00", `/breaks/${id}%00`])
        statuses.push((await fetch(`${own.url}${path}`, { headers: { cookie } })).status);
      const pastBigint = await postComment(`/breaks/${id}/actions`, {
        seen_action: "9999999999999999999",
      });
      expect([...statuses, pastBigint.status]).toEqual([400, 400, 400, 400]);
      expect(logged).toEqual([]);
    } finally {
      await own.close();
    }
  });
  // Stopped (SIGTERM) while an accept waited on a match run's lock, the console cut the
  // connection at once: the browser got an empty reply, and the action committed seconds later
  // (a retried comment was written twice). The request in hand now finishes and is answered.
  if (kind === "postgres")
    it("answers the request in hand when it is stopped, then stops (run last: it closes the console)", async () => {
      const { cookie, formToken } = await session();
      const id = f.ids[2] as string;
      const other = await f.database.openAnother();
      let release = () => {};
      const released = new Promise<void>((r) => {
        release = r;
      });
      let locked = () => {};
      const isLocked = new Promise<void>((r) => {
        locked = r;
      });
      const holding = other.db.transaction(async (tx) => {
        await queryText(tx, "LOCK TABLE break_workflow IN ACCESS EXCLUSIVE MODE");
        locked();
        await released;
      });
      try {
        await isLocked;
        const answer = post(`/breaks/${id}/actions`, cookie, {
          action: "comment",
          text: "in hand at the stop",
          form_token: formToken,
          seen_action: "0",
        });
        await new Promise((r) => setTimeout(r, 300)); // the comment waits on the lock
        const closed = f.console.close();
        await new Promise((r) => setTimeout(r, 300));
        release();
        expect((await answer).status).toBe(303);
        await closed;
        expect((await breakHistory(f.database.db, id)).map((h) => h.text)).toContain(
          "in hand at the stop",
        );
      } finally {
        release();
        await holding;
        await other.close();
      }
    });
});
